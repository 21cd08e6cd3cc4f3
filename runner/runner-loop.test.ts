import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import * as tar from "tar-stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  completeRequestSchema,
  LEASE_HEADER,
  logsRequestSchema,
  registerRequestSchema,
  type ClaimedJob,
} from "@/lib/runner/protocol";
import { startRunner, type RunningRunner } from "./runner-loop";
import { claimedJobFixture, listenStandIn } from "./claimed-job.testutil";
import { tarBuffer } from "./tar.testutil";
import { pollUntil } from "@/test/poll";

/**
 * The runner against a stand-in studio that speaks lib/runner/protocol.ts (the real studio's tests
 * run it against the built app): what it sends, in which order, under which token and lease.
 */
interface FakeStudio {
  url: string;
  calls: string[];
  logs: Map<number, string>;
  completions: unknown[];
  outputs: Buffer | null;
  /** Staff cancelled: said by the heartbeat, or by the wait-cancel long poll only. */
  cancel: "heartbeat" | "wait-cancel" | null;
  /** From then on, everything under the job's lease is refused as stale. */
  stale: boolean;
  /** From then on, the job token is refused (its runner token was revoked). */
  revoked: boolean;
  /** While true, heartbeats are refused with an error that is neither a stale lease nor a revoked token. */
  heartbeatsRefused: boolean;
  close(): Promise<void>;
}

async function fakeStudio(script: string, settings: Partial<ClaimedJob["job"]["settings"]> = {}): Promise<FakeStudio> {
  const archive = gzipSync(await tarBuffer([{ name: "reproduce.sh", mode: 0o755, content: script }]));
  const job = claimedJobFixture({
    settings: { timeoutS: 60, ...settings },
    lease: { expiresAt: new Date(Date.now() + 60_000).toISOString(), leaseS: 60, heartbeatS: 1 },
  });
  const jobId = job.job.id;
  const leaseId = job.lease.id;
  const jobToken = job.jobToken;
  let claimed = false;
  const studio: FakeStudio = {
    url: "",
    calls: [],
    logs: new Map(),
    completions: [],
    outputs: null,
    cancel: null,
    stale: false,
    revoked: false,
    heartbeatsRefused: false,
    close: async () => undefined,
  };
  const server = await listenStandIn(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const auth = req.headers.authorization ?? "";
    const url = req.url ?? "";
    studio.calls.push(`${req.method} ${url.replace(jobId, ":id")}`);
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (url === "/api/runner/register") {
      expect(auth).toBe("Bearer rst_runner_test");
      registerRequestSchema.parse(JSON.parse(body.toString()));
      return json(200, { runnerId: randomUUID() });
    }
    if (url === "/api/runner/claim") {
      expect(auth).toBe("Bearer rst_runner_test");
      if (claimed) return void setTimeout(() => res.writeHead(204).end(), 200);
      claimed = true;
      return json(200, job);
    }
    expect(auth).toBe(`Bearer ${jobToken}`);
    if (studio.stale) return json(409, { error: { code: "stale_lease", message: "lease moved on" } });
    if (studio.revoked)
      return json(401, {
        error: {
          code: "unauthorized",
          message: "The runner token this job was claimed with was revoked: stop the job",
        },
      });
    if (url.endsWith("/submission")) return res.writeHead(200, { "content-type": "application/gzip" }).end(archive);
    if (url.endsWith("/heartbeat") && studio.heartbeatsRefused)
      return json(429, { error: { code: "rate_limited", message: "slow down" } });
    if (url.endsWith("/heartbeat"))
      return json(200, { leaseExpiresAt: new Date().toISOString(), cancel: studio.cancel === "heartbeat" });
    if (url.endsWith("/wait-cancel")) {
      const { waitS } = JSON.parse(body.toString()) as { waitS: number };
      const deadline = Date.now() + waitS * 1000;
      let gone = false;
      res.on("close", () => (gone = true));
      while (studio.cancel !== "wait-cancel" && Date.now() < deadline && !gone)
        await new Promise((r) => setTimeout(r, 20));
      return json(200, { cancel: studio.cancel === "wait-cancel" });
    }
    if (url.endsWith("/logs")) {
      const parsed = logsRequestSchema.parse(JSON.parse(body.toString()));
      expect(parsed.leaseId).toBe(leaseId);
      for (const chunk of parsed.chunks) studio.logs.set(chunk.seq, chunk.text);
      return json(200, { stored: parsed.chunks.length });
    }
    if (url.endsWith("/outputs")) {
      expect(req.headers[LEASE_HEADER]).toBe(leaseId);
      studio.outputs = body;
      return json(200, {});
    }
    if (url.endsWith("/complete")) {
      studio.completions.push(completeRequestSchema.parse(JSON.parse(body.toString())));
      return json(200, {});
    }
    json(404, { error: { code: "not_found", message: url } });
  });
  studio.url = server.url;
  studio.close = server.close;
  return studio;
}

function log(studio: FakeStudio): string {
  return [...studio.logs.keys()]
    .sort((a, b) => a - b)
    .map((seq) => studio.logs.get(seq))
    .join("");
}

/** Polls with no deadline of its own (see pollUntil): the test's timeout is the one bound. */
const until = (done: () => boolean) => pollUntil("the runner's next step", done, Boolean);

function outputNames(archive: Buffer): Promise<string[]> {
  const extract = tar.extract();
  const names: string[] = [];
  extract.on("entry", (header, stream, next) => {
    names.push(header.name);
    stream.on("end", next).resume();
  });
  return new Promise((resolve) => {
    extract.on("finish", () => resolve(names));
    extract.end(gunzipSync(archive));
  });
}

let runner: RunningRunner | null = null;
let studio: FakeStudio | null = null;
afterEach(async () => {
  await runner?.stop();
  await studio?.close();
  runner = null;
  studio = null;
});

async function start(s: FakeStudio): Promise<string[]> {
  const events: string[] = [];
  runner = await startRunner({
    url: s.url,
    token: "rst_runner_test",
    name: "test-runner",
    backend: "local",
    workDir: fs.mkdtempSync(path.join(os.tmpdir(), "runner-loop-")),
    maxJobs: 1,
    dockerImage: "unused",
    killGraceMs: 500,
    claimWaitS: 1,
    event: (line) => events.push(line),
  });
  return events;
}

describe("startRunner against the protocol", () => {
  it("registers, claims, streams the masked log, uploads the outputs, then completes once", async () => {
    studio = await fakeStudio(
      'echo "step 1"\necho "secret=$HF_TOKEN"\nmkdir results && echo 1 > results/r.txt\nexit 3\n',
    );
    const events = await start(studio);
    await until(() => studio!.completions.length > 0);
    expect(studio.completions).toEqual([
      expect.objectContaining({
        status: "failed",
        exitCode: 3,
        outputsUploaded: true,
        reason: "reproduce.sh exited with status 3",
      }),
    ]);
    expect(log(studio)).toContain("step 1\nsecret=***\n");
    const calls = studio.calls.filter(
      (c) => !c.includes("heartbeat") && !c.includes("claim") && !c.includes("wait-cancel"),
    );
    expect(calls.slice(0, 2)).toEqual(["POST /api/runner/register", "GET /api/runner/jobs/:id/submission"]);
    expect(calls.indexOf("PUT /api/runner/jobs/:id/outputs")).toBeLessThan(
      calls.indexOf("POST /api/runner/jobs/:id/complete"),
    );
    expect(calls.at(-1)).toBe("POST /api/runner/jobs/:id/complete");
    expect(await outputNames(studio.outputs!)).toEqual(
      expect.arrayContaining(["reproduce.sh", "reproduce.log", "results/r.txt"]),
    );
    // The runner reports the job finished once the studio has answered the completion: a moment after it arrived.
    await until(() => events.some((e) => /^finished job .*: failed, exit code 3/.test(e)));
    expect(events.join("\n")).not.toContain("rst_runner_test");
  });

  it("cancels when a heartbeat says so, and completes as cancelled", async () => {
    studio = await fakeStudio("echo working\nsleep 30\n");
    await start(studio);
    await until(() => log(studio!).includes("working"));
    studio.cancel = "heartbeat";
    await until(() => studio!.completions.length > 0);
    expect(studio.completions[0]).toMatchObject({ status: "cancelled", exitCode: null });
  });

  it("logs each failed heartbeat with how many failed in a row and the time since the last success, and runs on", async () => {
    const goOn = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "runner-go-on-")), "go-on");
    studio = await fakeStudio(`echo working\nwhile [ ! -f ${goOn} ]; do sleep 0.1; done\necho done\n`);
    const events = await start(studio);
    await until(() => log(studio!).includes("working"));
    studio.heartbeatsRefused = true;
    await until(() => events.some((e) => e.includes("heartbeat failed (2 in a row")));
    const failures = events.filter((e) => e.includes("heartbeat failed"));
    expect(failures[0]).toMatch(
      /^job [0-9a-f-]{36}: heartbeat failed \(1 in a row, \d+\.\d s since the last success, lease 60 s\): POST \/api\/runner\/jobs\/[0-9a-f-]{36}\/heartbeat: 429 slow down$/,
    );
    studio.heartbeatsRefused = false;
    // The job was never stopped for it: it goes on to its end once told to.
    fs.writeFileSync(goOn, "");
    await until(() => studio!.completions.length > 0);
    expect(studio.completions[0]).toMatchObject({ status: "succeeded", exitCode: 0 });
  });

  it("hears a cancel through its wait-cancel long poll, which it holds for the whole run", async () => {
    studio = await fakeStudio("echo working\nsleep 30\n");
    const events = await start(studio);
    await until(() => log(studio!).includes("working"));
    expect(studio.calls).toContain("POST /api/runner/jobs/:id/wait-cancel");
    studio.cancel = "wait-cancel";
    await until(() => studio!.completions.length > 0);
    expect(studio.completions[0]).toMatchObject({ status: "cancelled" });
    expect(events.join("\n")).toMatch(/cancel requested for job/);
  });

  it("abandons a job whose lease went stale: its processes stopped, never completed", async () => {
    const marker = `6${Math.floor(Math.random() * 1e8)}`;
    studio = await fakeStudio(`echo working\nsleep ${marker}\n`);
    const events = await start(studio);
    await until(() => log(studio!).includes("working"));
    studio.stale = true;
    await until(() => events.some((e) => e.startsWith("abandoned job")));
    expect(studio.completions).toEqual([]);
    const { execFileSync } = await import("node:child_process");
    expect(() => execFileSync("pgrep", ["-f", `sleep ${marker}`])).toThrow();
  });

  it("stops a job whose token the studio refuses (its runner token revoked): its processes stopped, never completed", async () => {
    const marker = `7${Math.floor(Math.random() * 1e8)}`;
    studio = await fakeStudio(`echo working\nsleep ${marker}\n`);
    const events = await start(studio);
    await until(() => log(studio!).includes("working"));
    studio.revoked = true;
    await until(() => events.some((e) => e.startsWith("abandoned job")));
    expect(events.find((e) => e.startsWith("abandoned job"))).toContain("revoked");
    expect(studio.completions).toEqual([]);
    const { execFileSync } = await import("node:child_process");
    expect(() => execFileSync("pgrep", ["-f", `sleep ${marker}`])).toThrow();
  });
});
