import type { ClaimedJob } from "@/lib/runner/protocol";
import type { ReproduceOptions, ReproduceResult } from "../reproduce";
import type { JobBackend, SpawnLimits } from "./job-backend";

/**
 * A backend that runs the whole reproduction elsewhere (kubernetes: a pod per job) instead of one
 * command at a time on this machine: PaperBench's steps happen there, the runner only follows them.
 */
export interface WholeJobBackend extends JobBackend {
  /** Null when it left the job running for the next runner of its name (the runner is shutting down). */
  reproduceJob(run: WholeJobRun): Promise<ReproduceResult | null>;
  /** The claims of jobs this backend left running (a restart): the runner re-adopts those the studio still renews. */
  adoptable(): Promise<ClaimedJob[]>;
  /** Removes what is left of a job whose lease is gone. */
  discard(claimed: ClaimedJob): Promise<void>;
}

export interface WholeJobRun extends Omit<ReproduceOptions, "backend" | "diskLimitMiB"> {
  claimed: ClaimedJob;
  /** Resolves when the runner is shutting down (`cancelled` resolves too). */
  shutdown: Promise<void>;
  limits: SpawnLimits;
  diskMiB: number;
}

export function runsWholeJobs(backend: JobBackend): backend is WholeJobBackend {
  return "reproduceJob" in backend;
}
