import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Store } from "@/db/client";
import { packDirectory } from "@/server/submissions/pack-directory";
import { uploadSubmission } from "@/server/submissions/upload-submission";
import { DEMO_AGENTS, DEMO_RUNS } from "./seed-gradings";

export const DEMO_SUBMISSION_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "rubrics", "demo", "submission");

/**
 * The demo submission (rubrics/demo/submission: a bash reproduce.sh that prints for a few seconds
 * and writes a results table) stored as a new run of the first demo agent (after its graded ones,
 * which stay as the review demo has them), so a newcomer opens it and presses Reproduce; the
 * embedded runner runs it. Not queued here: watching it start is the point.
 */
export async function seedDemoSubmission(store: Store, paperId: string): Promise<{ submissionId: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-demo-submission-"));
  try {
    const archive = path.join(dir, "demo-submission.tar.gz");
    await packDirectory(DEMO_SUBMISSION_DIR, archive);
    const result = await uploadSubmission(store, {
      paperId,
      agent: DEMO_AGENTS[0].name,
      run: DEMO_RUNS + 1,
      variant: "full",
      reproduce: false,
      replace: true,
      userId: null,
      archive: { path: archive, name: "demo-submission.tar.gz", disposable: true },
    });
    return { submissionId: result.submissionId };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
