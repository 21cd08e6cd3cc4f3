/**
 * A revoked runner token ends what it started (issue 19, item 7), against the built studio over
 * HTTP, on PGlite and on PostgreSQL when DATABASE_URL is set: once staff revoke the token a job was
 * claimed with, that job's token is refused on every runner route (heartbeat, logs, download,
 * outputs, complete, release), so nothing renews its lease, and the queue requeues the job when the
 * lease expires, for a runner with a live token to take. The runner here is this test speaking the
 * runner protocol, so each route is asked exactly once after the revocation.
 */
import { describe, expect, it } from "vitest";
import { LEASE_HEADER, type ClaimedJob } from "@/lib/runner/protocol";
import { DEMO_PAPER_ID, api } from "./harness";
import { tarGz, uploadSubmission, waitForJob } from "./runner-harness";
import { studioSuite } from "./studio-suite";

const LEASE_S = 3;
const CAPS = { gpus: [], cpus: 1, memoryBytes: 1 << 30, backend: "local", maxJobs: 1, hostname: "test-host" };

function runnerTokensSuite(kind: "pglite" | "postgres") {
  describe(`runner tokens on ${kind}`, () => {
    const studio = studioSuite(kind, "runner-tokens", {
      env: { JOB_LEASE_S: String(LEASE_S), JOB_HEARTBEAT_S: "1", EMBEDDED_RUNNER: "0" },
    });

    /** A runner protocol request with a bearer token: its status and JSON body. */
    async function runnerCall<T>(
      token: string,
      method: string,
      url: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; body: T }> {
      const raw = body instanceof Uint8Array;
      const res = await fetch(`${studio.url}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": raw ? "application/gzip" : "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : raw ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    }
    async function newRunner(name: string): Promise<{ tokenId: string; token: string; runnerId: string }> {
      const made = await api<{ token: string; id: string }>(studio.url, studio.staff, "POST", "/api/runners/tokens", {
        name,
      });
      expect(made.status).toBe(200);
      const registered = await runnerCall<{ runnerId: string }>(made.body.token, "POST", "/api/runner/register", {
        name,
        capabilities: CAPS,
      });
      expect(registered.status).toBe(200);
      return { tokenId: made.body.id, token: made.body.token, runnerId: registered.body.runnerId };
    }

    it("refuses a revoked token's running job on every runner route, and requeues the job when its lease expires", async () => {
      const doomed = await newRunner(`doomed-${kind}`);
      const up = await uploadSubmission(
        studio.url,
        { cookie: studio.staff },
        DEMO_PAPER_ID,
        { agent: `Token test · ${kind}`, run: 1, reproduce: true },
        await tarGz({ "reproduce.sh": "echo hi\n" }),
      );
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      const jobId = up.body.jobId!;
      const claim = await runnerCall<ClaimedJob>(doomed.token, "POST", "/api/runner/claim", {
        runnerId: doomed.runnerId,
        freeGpus: [],
        freeSlots: 1,
        waitS: 10,
      });
      expect(claim.status).toBe(200);
      expect(claim.body.job.id).toBe(jobId);
      const { jobToken, lease } = claim.body;
      const jobPath = `/api/runner/jobs/${jobId}`;
      const heartbeat = () => runnerCall(jobToken, "POST", `${jobPath}/heartbeat`, { leaseId: lease.id });
      expect((await heartbeat()).status).toBe(200);

      expect(await api(studio.url, studio.staff, "DELETE", `/api/runners/tokens/${doomed.tokenId}`)).toEqual({
        status: 200,
        body: { revoked: true },
      });

      const after = {
        heartbeat: await heartbeat(),
        logs: await runnerCall(jobToken, "POST", `${jobPath}/logs`, {
          leaseId: lease.id,
          chunks: [{ seq: 0, text: "after the revocation\n" }],
        }),
        download: await runnerCall(jobToken, "GET", `${jobPath}/submission`),
        outputs: await runnerCall(
          jobToken,
          "PUT",
          `${jobPath}/outputs`,
          new Uint8Array(await tarGz({ "out.txt": "x" })),
          { [LEASE_HEADER]: lease.id },
        ),
        complete: await runnerCall(jobToken, "POST", `${jobPath}/complete`, {
          leaseId: lease.id,
          status: "succeeded",
          exitCode: 0,
          reason: null,
          metadata: null,
          outputsUploaded: false,
          durationS: 1,
        }),
        release: await runnerCall(jobToken, "POST", `${jobPath}/release`, { leaseId: lease.id, reason: "stopping" }),
        claim: await runnerCall(doomed.token, "POST", "/api/runner/claim", {
          runnerId: doomed.runnerId,
          freeGpus: [],
          freeSlots: 1,
          waitS: 0,
        }),
      };
      for (const [route, answer] of Object.entries(after)) {
        expect(answer.status, route).toBe(401);
        expect(answer.body, route).toMatchObject({ error: { code: "unauthorized" } });
      }
      expect((after.heartbeat.body as { error: { message: string } }).error.message).toMatch(/revoked/);

      // Nothing renews the lease: once it expires the queue's rules apply (a first attempt goes back to
      // the queue), and a runner with a live token takes the job; nothing the revoked one sent was kept.
      const live = await newRunner(`live-${kind}`);
      const again = await runnerCall<ClaimedJob>(live.token, "POST", "/api/runner/claim", {
        runnerId: live.runnerId,
        freeGpus: [],
        freeSlots: 1,
        waitS: 30,
      });
      expect(again.status).toBe(200);
      expect(again.body.job).toMatchObject({ id: jobId, attempt: 2 });
      const { job, logTail } = await waitForJob(studio.url, studio.staff, jobId, (a) => a.job.status === "running");
      expect(job.attemptHistory.map((a) => a.status)).toEqual(["failed", "running"]);
      expect(logTail).not.toContain("after the revocation");
      expect(
        (await runnerCall(again.body.jobToken, "POST", `${jobPath}/heartbeat`, { leaseId: again.body.lease.id }))
          .status,
      ).toBe(200);
    });
  });
}

runnerTokensSuite("pglite");
if (process.env.DATABASE_URL) runnerTokensSuite("postgres");
else if (process.env.CI === "true") {
  describe("runner tokens on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set: the PostgreSQL half of the runner token suite cannot run");
    });
  });
}
