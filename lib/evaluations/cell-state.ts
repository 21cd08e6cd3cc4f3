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
 * Where a cell stands, from what is stored: a reproduction (ingested, or the studio's job) that
 * timed out or failed comes first, then the grading (missing: pending, or failed when an ingested
 * grade had no judge output; invalid leaves), else succeeded.
 */
export function cellStateOf(facts: CellFacts): CellState {
  const repro = facts.imported?.reproduction ?? null;
  if (repro) {
    if (repro.timedout === true) return "timed_out";
    if (repro.repro_script_exists === false) return "failed";
    if (typeof repro.exit_code === "number" && repro.exit_code !== 0) return "failed";
  }
  if (facts.jobStatus === "timed_out") return "timed_out";
  if (facts.jobStatus === "failed" || facts.jobStatus === "cancelled") return "failed";
  if (!facts.hasGrading) {
    if (facts.imported?.judgeOutputMissing) return "failed";
    return "pending";
  }
  if (facts.jobStatus === "queued" || facts.jobStatus === "running") return "pending";
  return facts.invalidLeaves > 0 ? "invalid_leaves" : "succeeded";
}
