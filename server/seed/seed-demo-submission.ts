import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Store } from "@/db/client";
import { packDirectory } from "@/server/submissions/pack-directory";
import { uploadSubmission } from "@/server/submissions/upload-submission";
import { DEMO_AGENTS, DEMO_RUNS } from "./seed-gradings";

export const DEMO_SUBMISSION_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "rubrics", "demo", "submission");

/** Packs the demo repository once and stores it as the archive of each run given (a new run is created). */
async function storeDemoRepository(
  store: Store,
  paperId: string,
  runs: readonly { agent: string; run: number }[],
): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-demo-submission-"));
  try {
    const archive = path.join(dir, "demo-submission.tar.gz");
    await packDirectory(DEMO_SUBMISSION_DIR, archive);
    const ids: string[] = [];
    for (const { agent, run } of runs) {
      const result = await uploadSubmission(store, {
        paperId,
        agent,
        run,
        variant: "full",
        reproduce: false,
        replace: true,
        userId: null,
        // Kept for the next run: the blob store copies it (and keeps one copy per sha-256).
        archive: { path: archive, name: "demo-submission.tar.gz" },
      });
      ids.push(result.submissionId);
    }
    return ids;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The demo submission (rubrics/demo/submission: a bash reproduce.sh that prints for a few seconds
 * and writes a results table) stored as a new run of the first demo agent (after its graded ones),
 * so a newcomer opens it and presses Reproduce; the embedded runner runs it. Not queued here:
 * watching it start is the point.
 */
export async function seedDemoSubmission(store: Store, paperId: string): Promise<{ submissionId: string }> {
  const [submissionId] = await storeDemoRepository(store, paperId, [
    { agent: DEMO_AGENTS[0].name, run: DEMO_RUNS + 1 },
  ]);
  return { submissionId };
}

/**
 * The embedded mode's demo: the demo submission, and the same repository as the files of every
 * graded demo run, so every demo submission can be opened, reproduced and judged (the judge lab's
 * human-labelled run among them); their synthetic gradings stay as seeded.
 */
export async function seedDemoSubmissions(store: Store, paperId: string): Promise<{ submissionId: string }> {
  const graded = DEMO_AGENTS.flatMap((a) =>
    Array.from({ length: DEMO_RUNS }, (_, i) => ({ agent: a.name, run: i + 1 })),
  );
  await storeDemoRepository(store, paperId, graded);
  return seedDemoSubmission(store, paperId);
}
