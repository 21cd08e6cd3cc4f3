import "server-only";
import type { Store } from "@/db/client";
import { listDueEvaluationCells } from "@/db/queries/evaluation-cells";
import { advanceCell } from "./advance-cell";

/** An event gets this long to take its step before the sweep takes it. */
const GRACE_S = 5;
const BATCH = 50;

/**
 * Takes the due step of every pipeline cell whose event was missed (a restart between a job's end
 * and its cell's step, a step that failed, a start that never ran): run by the queue's upkeep
 * timer on every instance; the cell's row lock keeps two from taking one step.
 */
export async function sweepEvaluationCells(store: Store): Promise<number> {
  const due = await listDueEvaluationCells(store.db, GRACE_S, BATCH);
  let advanced = 0;
  for (const submissionId of due) {
    const result = await advanceCell(store, submissionId);
    if (result && result.step !== "wait") advanced++;
  }
  return advanced;
}
