/**
 * A job's log over SSE: chunks as the runner sends them, resumable from a cursor, the job's state,
 * and the end of the stream once the viewer may no longer see the paper.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getLiveRunnerTokenByHash } from "@/db/queries/runners";
import { ensureSubmission } from "@/db/queries/submissions";
import { agents } from "@/db/schema";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { signedInViewer } from "@/server/live/viewer.testutil";
import { removeMember } from "@/server/papers/remove-member";
import { registerRunner } from "@/server/runners/register-runner";
import { hashToken } from "@/server/auth/token-hash";
import { createRunnerToken } from "@/server/runners/runner-tokens";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { SseReader } from "@/test/sse-frames";
import { claimReproduceJob } from "@/server/reproductions/claim-reproduce-job";
import { enqueueReproduceJob } from "@/server/submissions/enqueue-reproduce";
import { appendJobLogs, completeJob, type JobLease } from "@/server/runners/job-lease";
import { jobLogEventStream, parseLogCursor } from "./job-log-stream";
import { readJobToken } from "@/server/runners/job-token";

const PAPER = "log-stream";

describe.each(testDatabaseKinds())("a job's log stream on %s", (kind) => {
  let handle: DbHandle;
  const aborts: AbortController[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await seedDemoRubric(handle, PAPER);
  });
  afterAll(async () => {
    for (const a of aborts) a.abort();
    await stopRubricFeed();
    await handle?.close();
  });

  async function runningJob(): Promise<{ jobId: string; lease: JobLease }> {
    const [agent] = await handle.db
      .insert(agents)
      .values({ name: `Log agent ${Math.random()}` })
      .returning();
    const { submission } = await ensureSubmission(handle.db, {
      paperId: PAPER,
      agentId: agent.id,
      runIndex: 1,
      variant: "full",
      userId: null,
    });
    const { jobId } = await enqueueReproduceJob(handle, { submissionId: submission.id, paperId: PAPER, userId: null });
    const created = await createRunnerToken(handle, { name: "log", createdBy: null });
    const token = (await getLiveRunnerTokenByHash(handle.db, hashToken(created.token)))!;
    const { runnerId } = await registerRunner(handle, token, {
      name: "log",
      capabilities: { gpus: [], cpus: 1, memoryBytes: 1, backend: "local", maxJobs: 1 },
    });
    const claimed = (await claimReproduceJob(handle, token, { runnerId, freeGpus: [], freeSlots: 1, waitS: 0 }))!;
    expect(claimed.job.id).toBe(jobId);
    return { jobId, lease: readJobToken(claimed.jobToken)! };
  }

  function open(viewer: { userId: string; sessionId: string }, jobId: string, after = parseLogCursor(null)) {
    const abort = new AbortController();
    aborts.push(abort);
    return new SseReader(
      jobLogEventStream({ store: handle, viewer, jobId, paperId: PAPER, after, signal: abort.signal }),
    );
  }

  it("sends the log as it arrives and the job's end, and resumes after a cursor", async () => {
    const staff = await signedInViewer(handle, { staff: true });
    const { jobId, lease } = await runningJob();
    await appendJobLogs(handle, lease, { leaseId: lease.leaseId, chunks: [{ seq: 0, text: "first\n" }] });
    const reader = open(staff, jobId);
    // Each look sends the new log first, then the state when it changed.
    const first = await reader.next((f) => f.event === "log");
    expect(first).toMatchObject({ id: "1:0" });
    expect(JSON.parse(first.data).text).toBe("first\n");
    expect(JSON.parse((await reader.next((f) => f.event === "job")).data)).toMatchObject({
      status: "running",
      attempt: 1,
    });
    await appendJobLogs(handle, lease, { leaseId: lease.leaseId, chunks: [{ seq: 1, text: "second\n" }] });
    expect(JSON.parse((await reader.next((f) => f.event === "log")).data).text).toBe("second\n");
    await completeJob(handle, lease, {
      leaseId: lease.leaseId,
      status: "succeeded",
      exitCode: 0,
      reason: null,
      metadata: null,
      outputsUploaded: false,
      durationS: 1,
    });
    expect(JSON.parse((await reader.next((f) => f.event === "job")).data)).toMatchObject({
      status: "succeeded",
      exitCode: 0,
    });

    // A reconnect with Last-Event-ID 1:0 gets only what came after it.
    const resumed = open(staff, jobId, parseLogCursor("1:0"));
    expect(JSON.parse((await resumed.next((f) => f.event === "log")).data).text).toBe("second\n");
  });

  it("ends with access-ended once the viewer leaves the paper", async () => {
    const staff = await signedInViewer(handle, { staff: true });
    const grader = await signedInViewer(handle, { paperId: PAPER, role: "grader", addedBy: staff.userId });
    const { jobId } = await runningJob();
    const reader = open(grader, jobId);
    await reader.next((f) => f.event === "job");
    await removeMember(handle, PAPER, grader.userId);
    expect((await reader.untilEnd(2_500)).map((f) => f.event)).toEqual(["access-ended"]);
  });
});
