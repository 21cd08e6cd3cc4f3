import type { CellState } from "./policies";
import type { ImportedRunResult } from "./schemas";

export interface CellFacts {
  imported: ImportedRunResult | null;
  /** The status of the submission's latest reproduction job, if it has one. */
  jobStatus: string | null;
  hasGrading: boolean;
  invalidLeaves: number;
}

/**
 * Where a cell stands, from what is stored. A graded cell is judged, however its reproduction
 * ended (PaperBench judges every reproduction that ran, a failed or timed-out one too): the
 * grading decides (invalid leaves, else succeeded), pending while a new reproduction runs. Only a
 * cell with nothing judged reads its reproduction's end (ingested, or the studio's job: timed out,
 * failed) or a grade without judge output (failed), else it is pending.
 */
export function cellStateOf(facts: CellFacts): CellState {
  if (facts.hasGrading) {
    if (facts.jobStatus === "queued" || facts.jobStatus === "running") return "pending";
    return facts.invalidLeaves > 0 ? "invalid_leaves" : "succeeded";
  }
  const repro = facts.imported?.reproduction ?? null;
  if (repro) {
    if (repro.timedout === true) return "timed_out";
    if (repro.repro_script_exists === false) return "failed";
    if (typeof repro.exit_code === "number" && repro.exit_code !== 0) return "failed";
  }
  if (facts.jobStatus === "timed_out") return "timed_out";
  if (facts.jobStatus === "failed" || facts.jobStatus === "cancelled") return "failed";
  if (facts.imported?.judgeOutputMissing) return "failed";
  return "pending";
}
