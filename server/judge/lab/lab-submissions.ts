import "server-only";
import type { Executor } from "@/db/client";
import { listLabSubmissionRows } from "@/db/queries/judge-lab";
import type { LabSubmission } from "@/lib/judge/lab/types";

/**
 * The human-labelled submissions the lab can run judges on: those with a human grading (the
 * latest is the truth), else with a judge grading a review covered (its effective scores are).
 */
export async function listLabSubmissions(
  store: { db: Executor },
  opts: { paperIds?: readonly string[] } = {},
): Promise<LabSubmission[]> {
  return listLabSubmissionRows(store.db, opts);
}
