import "server-only";
import type { z } from "zod";
import type { Store } from "@/db/client";
import type { Job } from "@/db/schema";
import type { JobKind } from "@/lib/jobs/states";

/**
 * The job kinds the queue knows, each defined by the feature that owns it and registered once at
 * start-up (`server/job-platform.ts`): the queue itself knows no kind. A kind says what its payload
 * holds (parsed through its schema, never cast), who claims its jobs (runners over HTTP, or a worker
 * inside a studio process) and, for a worker's kind, the work a claimed job does.
 */
export type ClaimPolicy =
  /** Runners claim it over the runner protocol, with the GPUs it needs free (`claimJob` by "runner"). */
  | { by: "runner" }
  /** A worker in a studio process claims it and runs its handler (`startJobWorker`). */
  | { by: "worker" };

export interface JobKindDefinition<P> {
  kind: JobKind;
  payload: z.ZodType<P>;
  claim: ClaimPolicy;
}

/** A kind's definition with its payload reader: features import their own and read payloads through it. */
export interface JobKindSpec<P> extends JobKindDefinition<P> {
  /** The job's payload by its kind's schema; throws when the job is of another kind or its payload does not parse. */
  payloadOf(job: Pick<Job, "kind" | "payload">): P;
  /** A payload checked against the schema before it is written (`insertJob`). */
  payloadFor(payload: P): P;
}

export function defineJobKind<P>(definition: JobKindDefinition<P>): JobKindSpec<P> {
  return {
    ...definition,
    payloadOf(job) {
      if (job.kind !== definition.kind) throw new Error(`A ${job.kind} job is not a ${definition.kind} job`);
      const parsed = definition.payload.safeParse(job.payload);
      if (!parsed.success) throw new Error(`A ${definition.kind} job's payload is invalid: ${parsed.error.message}`);
      return parsed.data;
    },
    payloadFor(payload) {
      return definition.payload.parse(payload);
    },
  };
}

/** What a worker hands a handler for one claimed job. */
export interface JobRunContext<P> {
  store: Store;
  job: Job;
  payload: P;
  leaseId: string;
  /** Aborted on a cancel, a lost lease or the worker's stop: start nothing new. */
  controller: AbortController;
  env: Record<string, string | undefined>;
  /**
   * What the job has left is all in flight (its last wave): the worker may claim its next job now
   * rather than leave its capacity idle while this one's stragglers finish. Once per job.
   */
  lastWave(): void;
  /**
   * The job will reach its last wave in about the time a job takes to prepare: the worker may claim
   * its next job now, which prepares and waits at `mayStart()`. Once per job.
   */
  nearEnd(): void;
  /**
   * Resolves when the job may start its work on the worker's capacity: at once, unless it was
   * claimed ahead of a job nearing its end (then when that one reaches its last wave), or aborted.
   * A handler that calls `nearEnd` prepares first and awaits this before its work.
   */
  mayStart(): Promise<void>;
}

/** The work of a worker-claimed kind. */
export interface JobHandler<P> {
  /**
   * Does what the job has left, every write fenced by the lease (a write that finds the lease gone
   * throws `LeaseLost`). Resolves with the units still left: 0 ends the job as succeeded.
   */
  run(ctx: JobRunContext<P>): Promise<{ unitsLeft: number }>;
  /** Why a run that returned with units left failed ("3 leaves were left ungraded"). */
  describeLeft(unitsLeft: number): string;
  /** The reason a cancelled run ends with (what stays of its work). */
  cancelledReason: string;
  /** Written in the transaction that ends the job, so no reader sees the job ended and its work not. */
  onEnd?(tx: Store, job: Job, payload: P): Promise<void>;
}

/**
 * A handler whose work loads on its kind's first job: a process that never runs the kind (a test
 * database, a CLI that only enqueues) never pays for importing its engine. Its texts are known up
 * front, so the worker may end a job before the work ever loaded.
 */
export function lazyJobHandler<P>(
  texts: Pick<JobHandler<P>, "describeLeft" | "cancelledReason">,
  load: () => Promise<Pick<JobHandler<P>, "run" | "onEnd">>,
): JobHandler<P> {
  let loaded: Promise<Pick<JobHandler<P>, "run" | "onEnd">> | null = null;
  const work = () => (loaded ??= load());
  return {
    ...texts,
    run: async (ctx) => (await work()).run(ctx),
    onEnd: async (tx, job, payload) => (await work()).onEnd?.(tx, job, payload),
  };
}

export interface RegisteredJobKind<P = unknown> {
  spec: JobKindSpec<P>;
  handler: JobHandler<P> | null;
}

/** Kept on globalThis: Next.js may load this module once per route bundle, and start-up registers in its own. */
const globalForKinds = globalThis as unknown as { __rubricJobKinds?: Map<JobKind, RegisteredJobKind> };
function kinds(): Map<JobKind, RegisteredJobKind> {
  globalForKinds.__rubricJobKinds ??= new Map();
  return globalForKinds.__rubricJobKinds;
}

/** Registers a kind (again: the same kind replaces its earlier registration, as a reload does). */
export function registerJobKind<P>(spec: JobKindSpec<P>, opts: { handler?: JobHandler<P> } = {}): void {
  if (spec.claim.by === "worker" && !opts.handler)
    throw new Error(`The ${spec.kind} job kind is claimed by a worker: register it with its handler`);
  kinds().set(spec.kind, { spec, handler: opts.handler ?? null } as RegisteredJobKind);
}

/** A registered kind; throws when none is, so a process that skipped start-up fails loudly, never silently. */
export function registeredJobKind(kind: JobKind): RegisteredJobKind {
  const found = kinds().get(kind);
  if (!found)
    throw new Error(`No ${kind} job kind is registered: the process must call registerJobPlatform() at start-up`);
  return found;
}

/** A registered kind claimed as `by` says; throws for any other (a runner never claims a worker's job). */
export function claimableJobKind(kind: JobKind, by: ClaimPolicy["by"]): RegisteredJobKind {
  const found = registeredJobKind(kind);
  if (found.spec.claim.by !== by) throw new Error(`${kind} jobs are claimed by a ${found.spec.claim.by}, not a ${by}`);
  return found;
}
