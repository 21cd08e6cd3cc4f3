/**
 * The job queue on both databases: claims under leases (each job to one claimer, GPUs respected),
 * heartbeats, fencing of everything sent under a stale lease, expired leases requeued and failed
 * after the last attempt, cancel, idempotent log chunks.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle, Store } from "@/db/client";
import { ensureSubmission } from "@/db/queries/submissions";
import { agents, type RunnerToken } from "@/db/schema";
import { getLiveRunnerTokenByHash } from "@/db/queries/runners";
import { getJobById, listLogChunksAfter } from "@/db/queries/jobs";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { AppError } from "@/lib/errors";
import { completeRequestSchema, logsRequestSchema, type ClaimedJob } from "@/lib/runner/protocol";
import { registerRunner } from "@/server/runners/register-runner";
import { hashToken } from "@/server/auth/token-hash";
import { createRunnerToken, revokeRunnerTokenById } from "@/server/runners/runner-tokens";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { cancelJob } from "@/server/jobs/cancel-job";
import { claimReproduceJob } from "./claim-reproduce-job";
import { enqueueReproduceJob } from "@/server/submissions/enqueue-reproduce";
import {
  appendJobLogs,
  authenticateJobToken,
  completeJob,
  heartbeatJob,
  releaseJob,
  waitForJobCancel,
  type JobLease,
} from "@/server/runners/job-lease";
import { readJobToken } from "@/server/runners/job-token";
import { reapExpiredLeases } from "@/server/jobs/reap-expired-leases";

const PAPER = "queue-paper";
const CAPS = { gpus: [], cpus: 2, memoryBytes: 1 << 30, backend: "local" as const, maxJobs: 4 };

describe.each(testDatabaseKinds())("the job queue on %s", (kind) => {
  let handle: DbHandle;
  let store: Store;
  let token: RunnerToken;
  let runnerA: string;
  let runnerB: string;
  let submissionId: string;

  beforeAll(async () => {
    process.env.JOB_LEASE_S = "30";
    handle = await openTestDatabase(kind);
    store = handle;
    await seedDemoRubric(handle, PAPER);
    const [agent] = await handle.db.insert(agents).values({ name: "Queue agent" }).returning();
    submissionId = (
      await ensureSubmission(handle.db, {
        paperId: PAPER,
        agentId: agent.id,
        runIndex: 1,
        variant: "full",
        userId: null,
      })
    ).submission.id;
    const created = await createRunnerToken(store, { name: "test", createdBy: null });
    token = (await getLiveRunnerTokenByHash(handle.db, hashToken(created.token)))!;
    runnerA = (await registerRunner(store, token, { name: "a", capabilities: CAPS })).runnerId;
    runnerB = (
      await registerRunner(store, token, {
        name: "b",
        capabilities: {
          ...CAPS,
          gpus: [
            { index: 0, model: "H100", memoryMiB: 81559 },
            { index: 1, model: "H100", memoryMiB: 81559 },
          ],
        },
      })
    ).runnerId;
  });
  afterAll(async () => {
    delete process.env.JOB_LEASE_S;
    // The long poll's LISTEN connection (PostgreSQL) ends before its database is dropped.
    await stopRubricFeed();
    await handle?.close();
  });
  beforeEach(async () => {
    // Each case starts from an empty queue.
    await handle.db.execute(sql`DELETE FROM jobs`);
  });

  const claim = (runnerId: string, freeGpus: number[] = [], waitS = 0) =>
    claimReproduceJob(store, token, { runnerId, freeGpus, freeSlots: 1, waitS });
  const leaseOf = (c: ClaimedJob): JobLease => readJobToken(c.jobToken)!;
  const expireLease = (jobId: string) =>
    handle.db.execute(sql`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = ${jobId}`);
  const refusedAsStale = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("stale_lease");
  };

  it("hands each queued job to one claimer, oldest first, and then none", async () => {
    const first = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const second = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const [a, b, c] = await Promise.all([claim(runnerA), claim(runnerA), claim(runnerA)]);
    const ids = [a, b, c].filter(Boolean).map((x) => x!.job.id);
    expect(ids.sort()).toEqual([first.jobId, second.jobId].sort());
    expect(new Set(ids).size).toBe(2);
    const job = await getJobById(handle.db, first.jobId);
    expect(job).toMatchObject({ status: "running", attempts: 1, runnerId: runnerA });
    const got = [a, b, c].find(Boolean)!;
    expect(readJobToken(got.jobToken)?.jobId).toBe(got.job.id);
  });

  it("gives a job needing GPUs only to a runner with that many free, and assigns them", async () => {
    await handle.db.execute(
      sql`INSERT INTO paper_run_settings (paper_id, timeout_s, gpus, network, salvage_retry_below_s) VALUES (${PAPER}, 600, 2, false, 0) ON CONFLICT (paper_id) DO UPDATE SET gpus = 2`,
    );
    try {
      const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
      expect(await claim(runnerA, [])).toBeNull();
      expect(await claim(runnerB, [1])).toBeNull();
      const got = await claim(runnerB, [1, 0]);
      expect(got?.job).toMatchObject({ id: jobId, gpuIndices: [1, 0] });
      expect(got?.job.settings).toMatchObject({ gpus: 2, timeoutS: 600, network: false });
    } finally {
      await handle.db.execute(sql`DELETE FROM paper_run_settings WHERE paper_id = ${PAPER}`);
    }
  });

  // How soon the claim wakes is a timing goal, measured by `npm run bench` (runner_claim_to_start_ms).
  it("hands a job queued during a claim's long poll to that claim", async () => {
    const waiting = claim(runnerA, [], 30);
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const got = await waiting;
    expect(got?.job.id).toBe(jobId);
  });

  it("refuses everything under a lease that expired, requeues the job, and completes it once under the new lease", async () => {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const first = (await claim(runnerA))!;
    const lease1 = leaseOf(first);
    expect((await heartbeatJob(store, lease1, lease1.leaseId)).cancel).toBe(false);
    await appendJobLogs(store, lease1, { leaseId: lease1.leaseId, chunks: [{ seq: 0, text: "attempt 1\n" }] });

    await expireLease(jobId);
    await refusedAsStale(heartbeatJob(store, lease1, lease1.leaseId));
    expect(await reapExpiredLeases(store)).toBe(1);
    expect(await getJobById(handle.db, jobId)).toMatchObject({ status: "queued", attempts: 1, leaseId: null });

    const second = (await claim(runnerB))!;
    expect(second.job).toMatchObject({ id: jobId, attempt: 2 });
    const lease2 = leaseOf(second);
    // The first runner comes back late: its log, heartbeat and completion are all refused.
    await refusedAsStale(
      appendJobLogs(store, lease1, { leaseId: lease1.leaseId, chunks: [{ seq: 1, text: "late\n" }] }),
    );
    await refusedAsStale(
      completeJob(store, lease1, {
        leaseId: lease1.leaseId,
        status: "succeeded",
        exitCode: 0,
        reason: null,
        metadata: null,
        outputsUploaded: false,
        durationS: 1,
      }),
    );
    // A token's lease must be the one the body names.
    await refusedAsStale(heartbeatJob(store, lease1, lease2.leaseId));

    const done = await completeJob(store, lease2, {
      leaseId: lease2.leaseId,
      status: "failed",
      exitCode: 3,
      reason: "reproduce.sh exited with 3",
      metadata: null,
      outputsUploaded: false,
      durationS: 2,
    });
    expect(done).toMatchObject({ status: "failed", exitCode: 3, failureReason: "reproduce.sh exited with 3" });
    await refusedAsStale(
      completeJob(store, lease2, {
        leaseId: lease2.leaseId,
        status: "succeeded",
        exitCode: 0,
        reason: null,
        metadata: null,
        outputsUploaded: false,
        durationS: 2,
      }),
    );
    // The same completion sent again (its answer was lost) is answered as the first, and changes nothing.
    const again = await completeJob(store, lease2, {
      leaseId: lease2.leaseId,
      status: "failed",
      exitCode: 3,
      reason: "reproduce.sh exited with 3",
      metadata: null,
      outputsUploaded: false,
      durationS: 2,
    });
    expect(again).toMatchObject({ status: "failed", attempts: 2 });
    const attempts = await handle.db.execute<{ attempt: number; status: string }>(
      sql`SELECT attempt, status FROM job_attempts WHERE job_id = ${jobId} ORDER BY attempt`,
    );
    expect(attempts.rows.map((r) => [r.attempt, r.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
    ]);
    const chunks = await listLogChunksAfter(handle.db, jobId, { attempt: 0, seq: -1 });
    expect(chunks.map((c) => c.text)).toEqual(["attempt 1\n"]);
  });

  it("fails a job whose lease expires on its last attempt, with the reason", async () => {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    await handle.db.execute(sql`UPDATE jobs SET max_attempts = 1 WHERE id = ${jobId}`);
    await claim(runnerA);
    await expireLease(jobId);
    await reapExpiredLeases(store);
    const job = await getJobById(handle.db, jobId);
    expect(job?.status).toBe("failed");
    expect(job?.failureReason).toMatch(/stopped answering.*last of 1 attempts/);
    expect(job?.finishedAt).not.toBeNull();
  });

  it("keeps a resent log chunk once", async () => {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const lease = leaseOf((await claim(runnerA))!);
    await appendJobLogs(store, lease, {
      leaseId: lease.leaseId,
      chunks: [
        { seq: 0, text: "a\n" },
        { seq: 1, text: "b\n" },
      ],
    });
    await appendJobLogs(store, lease, {
      leaseId: lease.leaseId,
      chunks: [
        { seq: 1, text: "b\n" },
        { seq: 2, text: "c\n" },
      ],
    });
    const chunks = await listLogChunksAfter(handle.db, jobId, { attempt: 0, seq: -1 });
    expect(chunks.map((c) => c.text).join("")).toBe("a\nb\nc\n");
    expect((await listLogChunksAfter(handle.db, jobId, { attempt: 1, seq: 1 })).map((c) => c.seq)).toEqual([2]);
  });

  it("cancels a queued job at once, and a running one through its heartbeat", async () => {
    const queued = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    await cancelJob(store, (await getJobById(handle.db, queued.jobId))!, null);
    expect((await getJobById(handle.db, queued.jobId))?.status).toBe("cancelled");
    expect(await claim(runnerA)).toBeNull();

    const running = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const lease = leaseOf((await claim(runnerA))!);
    await cancelJob(store, (await getJobById(handle.db, running.jobId))!, null);
    expect((await heartbeatJob(store, lease, lease.leaseId)).cancel).toBe(true);
    await completeJob(store, lease, {
      leaseId: lease.leaseId,
      status: "cancelled",
      exitCode: null,
      reason: "Cancelled by staff",
      metadata: null,
      outputsUploaded: false,
      durationS: 1,
    });
    expect((await getJobById(handle.db, running.jobId))?.status).toBe("cancelled");
    await expect(cancelJob(store, (await getJobById(handle.db, running.jobId))!, null)).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("records a job cancelled before its completion as cancelled, whatever the runner reports, keeping its exit code", async () => {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const lease = leaseOf((await claim(runnerA))!);
    // The run ended before the runner heard of the cancel: it reports success.
    await cancelJob(store, (await getJobById(handle.db, jobId))!, null);
    const body = {
      leaseId: lease.leaseId,
      status: "succeeded" as const,
      exitCode: 0,
      reason: null,
      metadata: null,
      outputsUploaded: false,
      durationS: 10,
    };
    expect((await completeJob(store, lease, body)).status).toBe("cancelled");
    const job = await getJobById(handle.db, jobId);
    expect(job).toMatchObject({ status: "cancelled", exitCode: 0 });
    expect(job?.failureReason).toMatch(
      /^Cancelled by staff as the run was ending; the runner reported succeeded, exit code 0$/,
    );
    // The same completion sent again (its answer lost) is answered the same way, not refused.
    expect((await completeJob(store, lease, body)).status).toBe("cancelled");
  });

  it("a cancel racing a completion: either the cancel is accepted and the job ends cancelled, or it is refused and the job ends as reported", async () => {
    for (let i = 0; i < 5; i++) {
      const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
      const lease = leaseOf((await claim(runnerA))!);
      const job = (await getJobById(handle.db, jobId))!;
      const [cancel] = await Promise.allSettled([
        cancelJob(store, job, null),
        completeJob(store, lease, {
          leaseId: lease.leaseId,
          status: "succeeded",
          exitCode: 0,
          reason: null,
          metadata: null,
          outputsUploaded: false,
          durationS: 1,
        }),
      ]);
      const ended = await getJobById(handle.db, jobId);
      if (cancel.status === "fulfilled") expect(ended?.status).toBe("cancelled");
      else expect([ended?.status, (cancel.reason as AppError).code]).toEqual(["succeeded", "conflict"]);
    }
  });

  it("answers a runner's wait-cancel the moment the job is cancelled, false when its wait ends, and stale once the lease is gone", async () => {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const lease = leaseOf((await claim(runnerA))!);
    expect(await waitForJobCancel(store, lease, { leaseId: lease.leaseId, waitS: 0 })).toEqual({ cancel: false });
    // Only the cancel can answer it true: an early answer would be false.
    const waiting = waitForJobCancel(store, lease, { leaseId: lease.leaseId, waitS: 30 });
    await cancelJob(store, (await getJobById(handle.db, jobId))!, null);
    expect(await waiting).toEqual({ cancel: true });
    await expireLease(jobId);
    await refusedAsStale(waitForJobCancel(store, lease, { leaseId: lease.leaseId, waitS: 0 }));
  });

  it("stores a log chunk, a reason and metadata holding NUL characters and lone surrogates, with U+FFFD in their place", async () => {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const lease = leaseOf((await claim(runnerA))!);
    const dirty = "a\u0000b\ud800c\udfffd";
    const clean = "a\uFFFDb\uFFFDc\uFFFDd";
    await appendJobLogs(
      store,
      lease,
      logsRequestSchema.parse(
        JSON.parse(JSON.stringify({ leaseId: lease.leaseId, chunks: [{ seq: 0, text: dirty }] })),
      ),
    );
    expect((await listLogChunksAfter(handle.db, jobId, { attempt: 0, seq: -1 }))[0].text).toBe(clean);
    const metadata = {
      is_valid_git_repo: true,
      git_log: dirty,
      repro_script_exists: true,
      files_before_reproduce: dirty,
      files_after_reproduce: null,
      timedout: false,
      retried_results: [],
      repro_execution_time: 1,
      git_status_after_reproduce: null,
      exit_code: 1,
      runner: dirty,
      gpus: [dirty],
      backend: "local",
      attempt: 1,
    };
    const body = completeRequestSchema.parse({
      leaseId: lease.leaseId,
      status: "failed",
      exitCode: 1,
      reason: dirty,
      metadata,
      outputsUploaded: false,
      durationS: 1,
    });
    await completeJob(store, lease, body);
    const job = await getJobById(handle.db, jobId);
    expect(job).toMatchObject({ status: "failed", failureReason: clean });
    expect((job?.result as { metadata: typeof metadata }).metadata).toMatchObject({
      git_log: clean,
      runner: clean,
      gpus: [clean],
    });
  });

  it("cancels, not requeues, a job whose runner died after a cancel was asked", async () => {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    await claim(runnerA);
    await cancelJob(store, (await getJobById(handle.db, jobId))!, null);
    await expireLease(jobId);
    await reapExpiredLeases(store);
    expect((await getJobById(handle.db, jobId))?.status).toBe("cancelled");
  });

  it("requeues a job its stopping runner releases, at once and without using up an attempt", async () => {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const first = (await claim(runnerA))!;
    const lease = leaseOf(first);
    await releaseJob(store, lease, { leaseId: lease.leaseId, reason: "the runner a was stopped" });
    expect(await getJobById(handle.db, jobId)).toMatchObject({
      status: "queued",
      attempts: 1,
      maxAttempts: 4,
      leaseId: null,
    });
    await refusedAsStale(heartbeatJob(store, lease, lease.leaseId));
    await refusedAsStale(releaseJob(store, lease, { leaseId: lease.leaseId, reason: "again" }));
    const second = (await claim(runnerB))!;
    expect(second.job).toMatchObject({ id: jobId, attempt: 2 });
    const attempts = await handle.db.execute<{ attempt: number; status: string; reason: string | null }>(
      sql`SELECT attempt, status, reason FROM job_attempts WHERE job_id = ${jobId} ORDER BY attempt`,
    );
    expect(attempts.rows[0]).toMatchObject({
      attempt: 1,
      status: "failed",
      reason: "Released: the runner a was stopped",
    });
    // A job whose cancel was asked is cancelled when its runner lets go of it.
    await cancelJob(store, (await getJobById(handle.db, jobId))!, null);
    const lease2 = leaseOf(second);
    await releaseJob(store, lease2, { leaseId: lease2.leaseId, reason: "stopped" });
    expect((await getJobById(handle.db, jobId))?.status).toBe("cancelled");
  });

  it("lets a job token open only its own job, and nothing else pass for one", async () => {
    const a = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const b = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const claimed = (await claim(runnerA))!;
    expect(claimed.job.id).toBe(a.jobId);
    const withToken = (token: string) =>
      new Request("http://studio/x", { headers: { authorization: `Bearer ${token}` } });
    await expect(authenticateJobToken(store, withToken(claimed.jobToken), a.jobId)).resolves.toEqual({
      jobId: a.jobId,
      leaseId: leaseOf(claimed).leaseId,
    });
    await expect(authenticateJobToken(store, withToken(claimed.jobToken), b.jobId)).rejects.toMatchObject({
      code: "forbidden",
    });
    // A forged signature, a runner token, or a token of the format before runner tokens were in it, is no job token.
    const forged = claimed.jobToken.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const { leaseId, runnerTokenId } = readJobToken(claimed.jobToken)!;
    const otherRunnerToken = (await createRunnerToken(store, { name: "other", createdBy: null })).id;
    const swapped = claimed.jobToken.replace(runnerTokenId, otherRunnerToken);
    for (const token of [
      forged,
      swapped,
      "rst_runner_abc",
      `rst_job_${a.jobId}.${leaseId}`,
      `rst_job_${a.jobId}.${leaseId}.${claimed.jobToken.split(".").pop()}`,
    ]) {
      await expect(authenticateJobToken(store, withToken(token), a.jobId), token).rejects.toMatchObject({
        code: "unauthorized",
      });
    }
  });

  it("refuses a job token once its runner's token is revoked; the job requeues when its lease expires", async () => {
    const other = await createRunnerToken(store, { name: "revoked mid-job", createdBy: null });
    const revokable = (await getLiveRunnerTokenByHash(handle.db, hashToken(other.token)))!;
    const runner = (await registerRunner(store, revokable, { name: "doomed", capabilities: CAPS })).runnerId;
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: PAPER, userId: null });
    const claimed = (await claimReproduceJob(store, revokable, {
      runnerId: runner,
      freeGpus: [],
      freeSlots: 1,
      waitS: 0,
    }))!;
    const request = () => new Request("http://studio/x", { headers: { authorization: `Bearer ${claimed.jobToken}` } });
    const lease = await authenticateJobToken(store, request(), jobId);
    await heartbeatJob(store, lease, lease.leaseId);

    await revokeRunnerTokenById(store, other.id);
    await expect(authenticateJobToken(store, request(), jobId)).rejects.toMatchObject({
      code: "unauthorized",
      message: expect.stringContaining("revoked"),
    });
    // Nothing renews the lease now: once it expires the queue's rules apply (a first attempt: queued again).
    await expireLease(jobId);
    expect(await reapExpiredLeases(store)).toBe(1);
    expect(await getJobById(handle.db, jobId)).toMatchObject({ status: "queued", attempts: 1 });
    const again = (await claim(runnerA))!;
    expect(again.job).toMatchObject({ id: jobId, attempt: 2 });
    await expect(
      authenticateJobToken(
        store,
        new Request("http://studio/x", { headers: { authorization: `Bearer ${again.jobToken}` } }),
        jobId,
      ),
    ).resolves.toMatchObject({ jobId });
  });

  it("refuses a claim for a runner registered with another token", async () => {
    const other = await createRunnerToken(store, { name: "other", createdBy: null });
    const otherToken = (await getLiveRunnerTokenByHash(handle.db, hashToken(other.token)))!;
    await expect(
      claimReproduceJob(store, otherToken, { runnerId: runnerA, freeGpus: [], freeSlots: 1, waitS: 0 }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
