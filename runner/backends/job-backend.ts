import type { Readable } from "node:stream";
import type { RunnerBackend } from "@/lib/runner/protocol";

/** What a backend needs to run one command of a job. */
export interface JobSpawnOptions {
  /** Host path of the job's writable copy of the submission (seen as /submission where isolated). */
  dir: string;
  /** Host path of the job's private scratch space (its /tmp and HOME). */
  scratchDir: string;
  command: string[];
  /** The paper's secrets and nothing else of the runner's: the backend adds PATH, HOME, LANG, TMPDIR and CUDA_VISIBLE_DEVICES. */
  secrets: Record<string, string>;
  gpuIndices: number[];
  network: boolean;
  /** Unique per spawn: names the container or marks the processes of this spawn. */
  name: string;
  /** The paper's memory and process limits, for the backends that can hold a job to them. */
  limits: SpawnLimits;
}

export interface SpawnLimits {
  memoryMiB: number;
  processes: number;
}

export interface JobExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The limit the spawn hit, in words ("the memory limit of 512 MiB"), when the backend can tell. */
  limitHit?: string | null;
  /** The backend could not set the spawn up (its network, its control group): nothing of the job ran. */
  setupError?: string | null;
}

export interface JobProcess {
  pid: number;
  stdout: Readable;
  stderr: Readable;
  /** Resolves once the command has ended, every process it started is gone and its output is closed. */
  wait(): Promise<JobExit>;
  /** SIGTERM to every process of the spawn, then SIGKILL after `graceMs`; resolves when all are gone. */
  kill(graceMs: number): Promise<void>;
}

export interface JobBackend {
  name: RunnerBackend;
  spawnJob(opts: JobSpawnOptions): JobProcess;
  /** `[runner]` lines for a job with these settings: what this backend cannot enforce of them here, and why. */
  notices(settings: { network: boolean; limits: SpawnLimits }): string[];
}
