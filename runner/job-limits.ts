import { DEFAULT_RUN_SETTINGS } from "@/lib/jobs/paper-settings";
import type { ReproduceSettings } from "@/lib/runner/protocol";
import type { SpawnLimits } from "./backends/job-backend";

/** The job's limits: the paper's, or the defaults where a studio older than the limits sent none. */
export function jobLimits(settings: ReproduceSettings): SpawnLimits & { diskMiB: number } {
  return {
    diskMiB: settings.diskLimitMiB ?? DEFAULT_RUN_SETTINGS.diskLimitMiB,
    ...spawnLimits(settings),
  };
}

export function spawnLimits(settings: ReproduceSettings): SpawnLimits {
  return {
    memoryMiB: settings.memoryLimitMiB ?? DEFAULT_RUN_SETTINGS.memoryLimitMiB,
    processes: settings.processLimit ?? DEFAULT_RUN_SETTINGS.processLimit,
  };
}
