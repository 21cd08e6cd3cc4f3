import { z } from "zod";
import { FINAL_JOB_STATUSES } from "@/lib/jobs/states";
import { keptText } from "@/lib/text";
import { reproductionMetadataSchema } from "@/lib/jobs/reproduction-metadata";

/**
 * The runner protocol: what a runner (runner/, on a GPU machine, HTTP only) and the studio
 * (app/api/runner/**) say to each other. Modelled on GitHub Actions and Buildkite runners:
 *
 *   POST /api/runner/register              runner token → { runnerId }
 *   POST /api/runner/claim                 runner token, long poll (≤ 30 s) → 200 a job | 204 none
 *   POST /api/runner/jobs/<id>/heartbeat   job token → { leaseExpiresAt, cancel }
 *   POST /api/runner/jobs/<id>/wait-cancel job token, long poll (≤ 30 s) → { cancel } at once when staff cancel
 *   POST /api/runner/jobs/<id>/logs        job token, sequenced chunks (idempotent by seq)
 *   GET  /api/runner/jobs/<id>/submission  job token → the submission archive (.tar.gz)
 *   PUT  /api/runner/jobs/<id>/outputs     job token, body: the outputs archive (.tar.gz)
 *   POST /api/runner/jobs/<id>/complete    job token → the final state, once
 *   POST /api/runner/jobs/<id>/release     job token → back in the queue at once (a runner stopping)
 *
 * A runner token (`Authorization: Bearer rst_runner_…`) registers and claims. A claim answers a
 * job token (`Bearer rst_job_…`) valid only for that job and only while its lease is current:
 * anything sent under a lease that has expired or moved to another runner is refused with 409
 * `stale_lease` (fencing), so a job completes once.
 */
export const RUNNER_PATHS = {
  register: "/api/runner/register",
  claim: "/api/runner/claim",
  heartbeat: (jobId: string) => `/api/runner/jobs/${jobId}/heartbeat`,
  waitCancel: (jobId: string) => `/api/runner/jobs/${jobId}/wait-cancel`,
  logs: (jobId: string) => `/api/runner/jobs/${jobId}/logs`,
  submission: (jobId: string) => `/api/runner/jobs/${jobId}/submission`,
  outputs: (jobId: string) => `/api/runner/jobs/${jobId}/outputs`,
  complete: (jobId: string) => `/api/runner/jobs/${jobId}/complete`,
  release: (jobId: string) => `/api/runner/jobs/${jobId}/release`,
} as const;

/** Token prefixes: a token says what it is, so a leaked one is recognisable (and maskable). */
export const TOKEN_PREFIX = { runner: "rst_runner_", job: "rst_job_", user: "rst_user_" } as const;

export const RUNNER_BACKENDS = ["sandbox", "local", "docker", "kubernetes"] as const;
export type RunnerBackend = (typeof RUNNER_BACKENDS)[number];

export const gpuSchema = z.object({
  /** The index nvidia-smi gives it (what CUDA_VISIBLE_DEVICES names). */
  index: z.number().int().min(0),
  model: keptText(z.string().max(200)),
  memoryMiB: z.number().int().min(0),
});
export type Gpu = z.infer<typeof gpuSchema>;

export const runnerCapabilitiesSchema = z.object({
  gpus: z.array(gpuSchema).max(64),
  cpus: z.number().int().min(1),
  memoryBytes: z.number().int().min(0),
  backend: z.enum(RUNNER_BACKENDS),
  /** How many jobs it runs at once (`--max-jobs`). */
  maxJobs: z.number().int().min(1).max(64),
  version: keptText(z.string().max(100)).optional(),
  hostname: keptText(z.string().max(200)).optional(),
});
export type RunnerCapabilities = z.infer<typeof runnerCapabilitiesSchema>;

export const registerRequestSchema = z.object({
  name: keptText(z.string().trim().min(1).max(200)),
  capabilities: runnerCapabilitiesSchema,
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;
export const registerResponseSchema = z.object({ runnerId: z.string().uuid() });

export const claimRequestSchema = z.object({
  runnerId: z.string().uuid(),
  /** GPU indices not in use by this runner's running jobs: the job gets some of these. */
  freeGpus: z.array(z.number().int().min(0)).max(64),
  /** Job slots free (max jobs less running ones); 0 makes the claim a pure liveness ping. */
  freeSlots: z.number().int().min(0).max(64),
  /** How long to wait for a job before answering 204 (capped at 30 s). */
  waitS: z.number().min(0).max(30).default(30),
});
export type ClaimRequest = z.infer<typeof claimRequestSchema>;

/** A paper's reproduction settings, as a claimed job carries them. */
export const reproduceSettingsSchema = z.object({
  timeoutS: z.number().int().min(1),
  gpus: z.number().int().min(0),
  network: z.boolean(),
  /** The paper's declared secrets, name → value, for reproduce.sh's environment only (masked in logs). */
  secrets: z.record(z.string(), z.string()),
  /** PaperBench's salvage retry: re-run a *failed* run shorter than this many seconds (0: never). */
  salvageRetryBelowS: z.number().int().min(0),
  /** Files larger than this are left out of the outputs archive (PaperBench: 10 MiB). */
  maxOutputFileBytes: z.number().int().min(0),
  /**
   * Per-job resource limits (the paper's run settings): the job's disk (its copy, /tmp and HOME
   * together), memory, and processes at once. Absent (a studio older than the limits), the runner
   * applies the run settings' defaults (`runner/job-limits.ts`).
   */
  diskLimitMiB: z.number().int().min(1).optional(),
  memoryLimitMiB: z.number().int().min(1).optional(),
  processLimit: z.number().int().min(1).optional(),
});
export type ReproduceSettings = z.infer<typeof reproduceSettingsSchema>;

export const claimedJobSchema = z.object({
  job: z.object({
    id: z.string().uuid(),
    kind: z.literal("reproduce"),
    attempt: z.number().int().min(1),
    submissionId: z.string().uuid(),
    paperId: z.string(),
    /** GPU indices of this runner assigned to the job (CUDA_VISIBLE_DEVICES). */
    gpuIndices: z.array(z.number().int().min(0)),
    settings: reproduceSettingsSchema,
  }),
  lease: z.object({
    id: z.string().uuid(),
    expiresAt: z.string(),
    leaseS: z.number().int().min(1),
    heartbeatS: z.number().int().min(1),
  }),
  jobToken: z.string(),
});
export type ClaimedJob = z.infer<typeof claimedJobSchema>;

export const heartbeatRequestSchema = z.object({ leaseId: z.string().uuid() });
export const heartbeatResponseSchema = z.object({
  leaseExpiresAt: z.string(),
  /** Staff asked to cancel: stop the job (SIGTERM, grace, SIGKILL) and complete it as cancelled. */
  cancel: z.boolean(),
});
export type HeartbeatResponse = z.infer<typeof heartbeatResponseSchema>;

/**
 * A running job's runner holds this long poll open for the whole run: it answers `cancel: true` as
 * soon as staff cancel the job (on any instance), so a cancel does not wait for the next heartbeat.
 */
export const waitCancelRequestSchema = z.object({
  leaseId: z.string().uuid(),
  /** How long to wait for a cancel before answering `cancel: false` (capped at 30 s). */
  waitS: z.number().min(0).max(30).default(25),
});
export type WaitCancelRequest = z.input<typeof waitCancelRequestSchema>;
export const waitCancelResponseSchema = z.object({ cancel: z.boolean() });

/** Log lines in order: `seq` counts chunks from 0 per attempt; a chunk sent twice is kept once. */
export const logChunkSchema = z.object({
  seq: z.number().int().min(0),
  text: keptText(z.string().max(1024 * 1024)),
});
export const logsRequestSchema = z.object({
  leaseId: z.string().uuid(),
  chunks: z.array(logChunkSchema).min(1).max(100),
});
export type LogsRequest = z.infer<typeof logsRequestSchema>;

export const completeRequestSchema = z.object({
  leaseId: z.string().uuid(),
  status: z.enum(FINAL_JOB_STATUSES),
  exitCode: z.number().int().nullable(),
  /** Why it failed, in words (missing reproduce.sh, timeout after 3600 s, …). */
  reason: keptText(z.string().max(4000)).nullable(),
  metadata: reproductionMetadataSchema.nullable(),
  /** The outputs archive was uploaded under this lease before completing. */
  outputsUploaded: z.boolean(),
  durationS: z.number().min(0).nullable(),
});
export type CompleteRequest = z.infer<typeof completeRequestSchema>;

/**
 * A runner that is stopping (SIGTERM: a scale-down, a reboot) hands its jobs back rather than leave
 * them to wait out their lease; the attempt does not count against the job's attempts.
 */
export const releaseRequestSchema = z.object({
  leaseId: z.string().uuid(),
  reason: keptText(z.string().max(500)),
});
export type ReleaseRequest = z.infer<typeof releaseRequestSchema>;

/** The header that carries the lease on the outputs upload (a raw body has no JSON to hold it). */
export const LEASE_HEADER = "x-lease-id";
