/** The users the embedded database seeds (server/seed/seed.ts); e2e runs always start from a fresh seed. */
export interface DemoUser {
  email: string;
  password: string;
  name: string;
  /** What the demo paper's page says the user is there. */
  demoRole: "staff" | "author" | "grader";
}

export const DEMO_PAPER = {
  id: "demo-adaptive-clipping",
  title: "Warmup-Free Adaptive Gradient Clipping for Small Transformers",
  stats: "33 nodes · 21 leaves · depth 4 · revision 1",
} as const;

export const STAFF: DemoUser = {
  email: "staff@demo.rubric.studio",
  password: "staff-demo-pass",
  name: "Sam Staff",
  demoRole: "staff",
};

export const AUTHOR: DemoUser = {
  email: "author@demo.rubric.studio",
  password: "author-demo-pass",
  name: "Ada Author",
  demoRole: "author",
};

export const GRADER: DemoUser = {
  email: "grader@demo.rubric.studio",
  password: "grader-demo-pass",
  name: "Grace Grader",
  demoRole: "grader",
};

export const DEMO_USERS: readonly DemoUser[] = [STAFF, AUTHOR, GRADER];
