/**
 * The job worker's capacity (on a real database, with a stand-in handler for the judge kind): it
 * runs `maxRuns` jobs at once, and a job in its last wave (`lastWave()`, everything it has left in
 * flight) no longer holds its place, so the next job starts beside its stragglers instead of after;
 * a job near its end (`nearEnd()`) lets one more be claimed ahead, which waits at `mayStart()`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { DbHandle } from "@/db/client";
import { getJobById, insertJob } from "@/db/queries/jobs";
import { createPaper } from "@/db/queries/papers";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { pollUntil } from "@/test/poll";
import { z } from "zod";
import { defineJobKind, registerJobKind, type JobRunContext } from "./job-kinds";
import { startJobWorker } from "./job-worker";

const PAPER = "job-worker-paper";
/** A worker-claimed kind of the queue's own (the queue knows no feature): the judge kind's name, a stand-in payload. */
const standIn = defineJobKind({ kind: "judge", payload: z.object({ runId: z.guid() }), claim: { by: "worker" } });

describe.each(testDatabaseKinds())("the job worker's capacity on %s", (kind) => {
  let handle: DbHandle;
  /** Runs the stand-in handler has started, in order, each with what ends it. */
  const started: { jobId: string; ctx: JobRunContext<unknown>; finish: () => void }[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await createPaper(
      handle.db,
      { id: PAPER, title: "Job worker", paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] },
      null,
    );
    registerJobKind(standIn, {
      handler: {
        describeLeft: (left) => `${left} left`,
        cancelledReason: "cancelled",
        run: (ctx) =>
          new Promise((resolve) => started.push({ jobId: ctx.job.id, ctx, finish: () => resolve({ unitsLeft: 0 }) })),
      },
    });
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** Waits until the stand-in handler has started `n` runs. */
  const untilStarted = (what: string, n: number) =>
    pollUntil(
      what,
      () => started.length,
      (count) => count >= n,
    );

  const queueJudgeJob = () =>
    insertJob(handle.db, {
      kind: "judge",
      paperId: PAPER,
      submissionId: null,
      payload: standIn.payloadFor({ runId: randomUUID() }),
      gpusRequired: 0,
      timeoutS: 600,
      maxAttempts: 1,
      createdBy: null,
    });

  it("holds the next job while one runs, starts it once that one is in its last wave, and ends both", async () => {
    const first = await queueJudgeJob();
    const second = await queueJudgeJob();
    const worker = startJobWorker(handle, { kind: "judge", maxRuns: 1, log: () => undefined });
    try {
      await untilStarted("the first job started", 1);
      expect(started.map((s) => s.jobId)).toEqual([first.id]);
      // The worker is full: having claimed the first, it looked again at once (before the handler
      // started) and left the second queued.
      expect((await getJobById(handle.db, second.id))?.status).toBe("queued");

      started[0].ctx.lastWave();
      await untilStarted("the second job started beside the first", 2);
      expect(started.map((s) => s.jobId)).toEqual([first.id, second.id]);
      expect((await getJobById(handle.db, first.id))?.status).toBe("running");

      for (const s of started) s.finish();
      for (const job of [first, second])
        await pollUntil(
          `job ${job.id} succeeded`,
          () => getJobById(handle.db, job.id).then((j) => j?.status),
          (status) => status === "succeeded",
        );
    } finally {
      await worker.stop();
    }
  });

  it("claims one job ahead of a job near its end: it prepares, and starts its work only at that job's last wave", async () => {
    started.length = 0;
    const [first, second, third] = [await queueJudgeJob(), await queueJudgeJob(), await queueJudgeJob()];
    const worker = startJobWorker(handle, { kind: "judge", maxRuns: 1, log: () => undefined });
    try {
      await untilStarted("the first job started", 1);
      let firstMayStart = false;
      void started[0].ctx.mayStart().then(() => (firstMayStart = true));
      started[0].ctx.nearEnd();
      await untilStarted("the second job claimed ahead", 2);
      expect(started.map((s) => s.jobId)).toEqual([first.id, second.id]);
      let secondMayStart = false;
      void started[1].ctx.mayStart().then(() => (secondMayStart = true));
      // Let every settled promise run its reactions: the first may work, the second waits.
      await new Promise((resolve) => setImmediate(resolve));
      expect(firstMayStart).toBe(true);
      expect(secondMayStart).toBe(false);
      // One waits already: no other is claimed ahead.
      expect((await getJobById(handle.db, third.id))?.status).toBe("queued");

      started[0].ctx.lastWave();
      await started[1].ctx.mayStart();
      expect(secondMayStart).toBe(true);

      for (const s of started.splice(0)) s.finish();
      await untilStarted("the third job started once the others ended", 1);
      expect(started[0].jobId).toBe(third.id);
      started[0].finish();
      for (const job of [first, second, third])
        await pollUntil(
          `job ${job.id} succeeded`,
          () => getJobById(handle.db, job.id).then((j) => j?.status),
          (status) => status === "succeeded",
        );
    } finally {
      await worker.stop();
    }
  });

  it("a job claimed ahead and stopped while it waits is let go at once, to see its signal", async () => {
    started.length = 0;
    await queueJudgeJob();
    await queueJudgeJob();
    const worker = startJobWorker(handle, { kind: "judge", maxRuns: 1, log: () => undefined });
    try {
      await untilStarted("the first job started", 1);
      started[0].ctx.nearEnd();
      await untilStarted("the second job claimed ahead", 2);
      const waiting = started[1].ctx;
      const stopped = worker.stop();
      await waiting.mayStart();
      expect(waiting.controller.signal.aborted).toBe(true);
      for (const s of started.splice(0)) s.finish();
      await stopped;
    } finally {
      await worker.stop();
    }
  });
});
