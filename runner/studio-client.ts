import fs from "node:fs";
import { Readable } from "node:stream";
import type { z } from "zod";
import {
  claimedJobSchema,
  heartbeatResponseSchema,
  LEASE_HEADER,
  registerResponseSchema,
  RUNNER_PATHS,
  type ClaimedJob,
  type ClaimRequest,
  type CompleteRequest,
  type HeartbeatResponse,
  type RegisterRequest,
  waitCancelResponseSchema,
} from "@/lib/runner/protocol";
import type { LogChunk } from "./log-stream";

/** The studio refused something sent under a lease that is no longer the job's (or a job token it no longer accepts): abandon the job, never complete it. */
export class StaleLeaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StaleLeaseError";
  }
}

/** The studio answered with an error that retrying will not mend (4xx). */
export class StudioError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
    this.name = "StudioError";
  }
}

export interface StudioClientOptions {
  url: string;
  runnerToken: string;
  /** Attempts for a request that fails on the network or with a 5xx. */
  attempts?: number;
  /** First wait between attempts, doubled each time (capped at 10 s). */
  backoffMs?: number;
}

interface RequestOptions {
  method: string;
  token: string;
  json?: unknown;
  /** A body read afresh for every attempt (a file upload). */
  body?: () => { stream: ReadableStream; type: string; length: number };
  leaseId?: string;
  signal?: AbortSignal;
  /** Tries before giving up (default: the client's). */
  attempts?: number;
}

/** The runner's side of lib/runner/protocol.ts, over global fetch. */
export class StudioClient {
  private readonly base: string;
  private readonly attempts: number;
  private readonly backoffMs: number;

  constructor(private readonly opts: StudioClientOptions) {
    this.base = opts.url.replace(/\/+$/, "");
    this.attempts = opts.attempts ?? 6;
    this.backoffMs = opts.backoffMs ?? 500;
  }

  async register(body: RegisterRequest): Promise<string> {
    const res = await this.request(RUNNER_PATHS.register, { method: "POST", token: this.opts.runnerToken, json: body });
    return (await parse(res, registerResponseSchema)).runnerId;
  }

  /** Long-polls for a job: null when none came within `waitS`. */
  async claim(body: ClaimRequest, signal?: AbortSignal): Promise<ClaimedJob | null> {
    const res = await this.request(RUNNER_PATHS.claim, {
      method: "POST",
      token: this.opts.runnerToken,
      json: body,
      signal,
    });
    if (res.status === 204) return null;
    return parse(res, claimedJobSchema);
  }

  async heartbeat(job: ClaimedJob): Promise<HeartbeatResponse> {
    const res = await this.request(
      RUNNER_PATHS.heartbeat(job.job.id),
      jobRequest(job, { method: "POST", json: { leaseId: job.lease.id } }),
    );
    return parse(res, heartbeatResponseSchema);
  }

  /**
   * The wait-cancel long poll: true as soon as staff cancel the job, false after `waitS`. One try:
   * the caller polls again (`watchForCancel`).
   */
  async waitCancel(job: ClaimedJob, waitS: number, signal?: AbortSignal): Promise<boolean> {
    const res = await this.request(RUNNER_PATHS.waitCancel(job.job.id), {
      ...jobRequest(job, { method: "POST", json: { leaseId: job.lease.id, waitS }, signal }),
      attempts: 1,
    });
    return (await parse(res, waitCancelResponseSchema)).cancel;
  }

  async sendLogs(job: ClaimedJob, chunks: LogChunk[]): Promise<void> {
    const res = await this.request(
      RUNNER_PATHS.logs(job.job.id),
      jobRequest(job, { method: "POST", json: { leaseId: job.lease.id, chunks } }),
    );
    await res.body?.cancel();
  }

  /** Downloads the submission archive to `file`. */
  async downloadSubmission(job: ClaimedJob, file: string): Promise<void> {
    const res = await this.request(RUNNER_PATHS.submission(job.job.id), jobRequest(job, { method: "GET" }));
    if (!res.body) throw new Error("the studio sent an empty submission");
    await fs.promises.writeFile(file, Readable.fromWeb(res.body as import("node:stream/web").ReadableStream));
  }

  async uploadOutputs(job: ClaimedJob, file: string): Promise<void> {
    const body = () => ({
      stream: Readable.toWeb(fs.createReadStream(file)) as ReadableStream,
      type: "application/gzip",
      length: fs.statSync(file).size,
    });
    const res = await this.request(RUNNER_PATHS.outputs(job.job.id), jobRequest(job, { method: "PUT", body }));
    await res.body?.cancel();
  }

  async complete(job: ClaimedJob, body: Omit<CompleteRequest, "leaseId">): Promise<void> {
    const res = await this.request(
      RUNNER_PATHS.complete(job.job.id),
      jobRequest(job, { method: "POST", json: { leaseId: job.lease.id, ...body } }),
    );
    await res.body?.cancel();
  }

  /** Hands the job back to the queue (this runner is stopping); one try, the lease covers a failure. */
  async release(job: ClaimedJob, reason: string): Promise<void> {
    const res = await this.request(RUNNER_PATHS.release(job.job.id), {
      ...jobRequest(job, { method: "POST", json: { leaseId: job.lease.id, reason } }),
      attempts: 1,
    });
    await res.body?.cancel();
  }

  private async request(pathname: string, opts: RequestOptions): Promise<Response> {
    let wait = this.backoffMs;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        const upload = opts.body?.();
        const headers: Record<string, string> = { authorization: `Bearer ${opts.token}` };
        if (opts.leaseId) headers[LEASE_HEADER] = opts.leaseId;
        if (opts.json !== undefined) headers["content-type"] = "application/json";
        if (upload) {
          headers["content-type"] = upload.type;
          headers["content-length"] = String(upload.length);
        }
        res = await fetch(this.base + pathname, {
          method: opts.method,
          headers,
          body: upload ? upload.stream : opts.json !== undefined ? JSON.stringify(opts.json) : undefined,
          signal: opts.signal,
          ...(upload ? { duplex: "half" } : {}),
        } as RequestInit);
      } catch (err) {
        if (opts.signal?.aborted || attempt >= (opts.attempts ?? this.attempts)) throw err;
        await sleep(wait);
        wait = Math.min(wait * 2, 10_000);
        continue;
      }
      if (res.ok) return res;
      const { code, message } = await errorOf(res);
      if (res.status === 409 && code === "stale_lease") throw new StaleLeaseError(message);
      // A job token refused (the runner token it was claimed with was revoked): the job is no longer
      // this runner's to run, just as with a stale lease; stop it rather than run it to its end.
      if (res.status === 401 && opts.leaseId) throw new StaleLeaseError(message);
      if (res.status < 500 || attempt >= (opts.attempts ?? this.attempts))
        throw new StudioError(res.status, code, `${opts.method} ${pathname}: ${res.status} ${message}`);
      await sleep(wait);
      wait = Math.min(wait * 2, 10_000);
    }
  }
}

function jobRequest(job: ClaimedJob, opts: Omit<RequestOptions, "token" | "leaseId">): RequestOptions {
  return { ...opts, token: job.jobToken, leaseId: job.lease.id };
}

/** The studio's error shape: `{ error: { code, message } }` (server/http/route.ts). */
async function errorOf(res: Response): Promise<{ code: string | null; message: string }> {
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return { code: body.error?.code ?? null, message: body.error?.message ?? text.slice(0, 500) };
  } catch {
    return { code: null, message: text.slice(0, 500) || res.statusText };
  }
}

async function parse<T extends z.ZodType>(res: Response, schema: T): Promise<z.infer<T>> {
  const parsed = schema.safeParse(await res.json());
  if (!parsed.success)
    throw new Error(`the studio's answer does not follow the runner protocol: ${parsed.error.message}`);
  return parsed.data;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
