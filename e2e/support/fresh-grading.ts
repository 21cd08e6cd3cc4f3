import { expect, type Page } from "@playwright/test";
import { AGGREGATED_EXPLANATION } from "../../lib/grading/types";
import type { RubricJson } from "./files";
import { GRADER } from "./users";

/**
 * A fresh paper of one's own with a small rubric (one leaf per task category and two more), the
 * demo grader as its grader, and gradings imported into it: specs that score, flag or assign work
 * there and leave the demo's gradings, queues and counts as they found them.
 */

const leaf = (id: string, requirements: string, task_category: string): RubricJson => ({
  id,
  requirements,
  weight: 1,
  sub_tasks: [],
  task_category,
  finegrained_task_category: null,
});

export const SMALL_RUBRIC: RubricJson = {
  id: "root",
  requirements: "The clipping paper has been reproduced",
  weight: 1,
  task_category: null,
  finegrained_task_category: null,
  sub_tasks: [
    {
      id: "code",
      requirements: "The method is implemented",
      weight: 2,
      task_category: null,
      finegrained_task_category: null,
      sub_tasks: [
        leaf("clip", "Gradients are clipped adaptively by their running norm", "Code Development"),
        leaf("warmup", "The model is trained without a warmup schedule", "Code Development"),
        leaf("seeds", "Each configuration is run with three seeds", "Code Execution"),
      ],
    },
    {
      id: "results",
      requirements: "Results",
      weight: 1,
      task_category: null,
      finegrained_task_category: null,
      sub_tasks: [
        leaf("table", "The loss table is reported", "Result Analysis"),
        leaf("plot", "The loss curve is plotted", "Code Execution"),
      ],
    },
  ],
};

/** The leaves of SMALL_RUBRIC, in order. */
export const SMALL_LEAVES = ["clip", "warmup", "seeds", "table", "plot"] as const;

/** A rubric graded: each leaf's score, and its explanation (`explain`). */
function graded(
  node: RubricJson,
  scores: Record<string, number>,
  explain: (id: string, score: number) => string,
): object {
  const isLeaf = node.sub_tasks.length === 0;
  return {
    ...node,
    score: scores[node.id] ?? 0,
    valid_score: true,
    explanation: isLeaf ? explain(node.id, scores[node.id] ?? 0) : AGGREGATED_EXPLANATION,
    judge_metadata: null,
    sub_tasks: node.sub_tasks.map((c) => graded(c, scores, explain)),
  };
}

/** A fresh paper with `rubric` (SMALL_RUBRIC unless told) and the demo grader as grader; its id. */
export async function freshPaper(staff: Page, prefix: string, rubric: RubricJson = SMALL_RUBRIC): Promise<string> {
  const paperId = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  expect(
    (await staff.request.post("/api/papers", { data: { id: paperId, title: `${prefix} ${paperId}` } })).status(),
  ).toBe(201);
  expect((await staff.request.put(`/api/papers/${paperId}/rubric`, { data: rubric })).status()).toBe(200);
  expect(
    (
      await staff.request.post(`/api/papers/${paperId}/members`, { data: { email: GRADER.email, role: "grader" } })
    ).status(),
  ).toBe(201);
  return paperId;
}

/** Imports a grading of `rubric` (the paper's: SMALL_RUBRIC unless told), run `run` of "Clipping agent" (one submission per run); its id. */
export async function importSmallGrading(
  staff: Page,
  paperId: string,
  scores: Record<string, number>,
  {
    run = 1,
    human = false,
    rubric = SMALL_RUBRIC,
    explain = (id: string, score: number) => `${human ? "A person" : "The judge"} gave ${id} ${score}.`,
  } = {},
): Promise<string> {
  const res = await staff.request.post(`/api/papers/${paperId}/gradings`, {
    data: { file: graded(rubric, scores, explain), agent: "Clipping agent", run, human },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { gradingId: string }).gradingId;
}

/** The review keys of a grading's nodes, by PaperBench id. */
export async function keysOf(page: Page, gradingId: string): Promise<Record<string, string>> {
  const res = await page.request.get(`/api/gradings/${gradingId}`);
  expect(res.status()).toBe(200);
  return Object.fromEntries(
    ((await res.json()) as { nodes: { nodeId: string; key: string }[] }).nodes.map((n) => [n.nodeId, n.key]),
  );
}

/** Withdraws every assignment of these gradings (the demo grader's queue is counted by review.spec.ts). */
export async function withdrawAssignments(staff: Page, gradingIds: readonly string[]): Promise<void> {
  for (const gradingId of gradingIds) {
    const res = await staff.request.get(`/api/gradings/${gradingId}/assignments`);
    expect(res.status()).toBe(200);
    for (const a of ((await res.json()) as { assignments: { id: string }[] }).assignments) {
      expect((await staff.request.delete(`/api/gradings/${gradingId}/assignments/${a.id}`)).status()).toBe(200);
    }
  }
}
