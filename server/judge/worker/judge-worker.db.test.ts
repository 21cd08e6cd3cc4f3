/**
 * The judge worker on both databases, end to end through the queue: a run started by the studio's
 * service is claimed under a lease, graded by the engine (the dummy judge, and the real `openai`
 * client against the scripted test server), each verdict stored as it arrives; a worker stopped
 * mid-run leaves the run to its lease and the next one grades only the missing leaves (counted on
 * the server); a cancel starts no new call.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle, Store } from "@/db/client";
import { getGradingById } from "@/db/queries/gradings";
import { listVerdicts } from "@/db/queries/grading-verdicts";
import { insertJob } from "@/db/queries/jobs";
import { getJudgeRunById } from "@/db/queries/judge-runs";
import { jobs } from "@/db/schema";
import type { JudgeConfigInput } from "@/lib/judge/config";
import type { JudgeRunView } from "@/lib/judge/views";
import { evidenceOf } from "@/lib/judge/evidence";
import { storeBlob } from "@/server/blobs/store-blob";
import { listJobsForStaff } from "@/server/jobs/list-jobs";
import { listPaperSubmissions } from "@/server/submissions/list-submissions";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { testJudgeConfig } from "@/server/judge/configs/judge-config.testutil";
import { cancelJudgeRun } from "@/server/judge/runs/cancel-judge-run";
import { readJudgeRun } from "@/server/judge/runs/read-judge-run";
import { startJudgeRuns } from "@/server/judge/runs/start-judge-run";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { seedDemoSubmission } from "@/server/seed/seed-demo-submission";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { startOpenAiTestServer, type OpenAiTestServer } from "@/test/openai-test-server";
import { DEMO_RUBRIC, seedDemoRubric } from "@/test/seed-demo-rubric";
import { startJudgeWorker } from "./judge-worker";
import { pollUntil } from "@/test/poll";

const PAPER = "judge-worker-paper";
const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-judge-blobs-"));
process.env.BLOB_DIR = blobDir;

/** The model of the test judge configurations (testJudgeConfig's), whose token counts the tests read. */
const MODEL = testJudgeConfig({ name: "model" }).model;

describe.each(testDatabaseKinds())("the judge worker on %s", (kind) => {
  let handle: DbHandle;
  let store: Store;
  let submissionId: string;
  let server: OpenAiTestServer | null = null;
  let worker: { stop(): Promise<void> } | null = null;
  let configNo = 0;

  beforeAll(async () => {
    process.env.JOB_LEASE_S = "2";
    process.env.JOB_HEARTBEAT_S = "1";
    handle = await openTestDatabase(kind);
    store = handle;
    await seedDemoRubric(handle, PAPER);
    ({ submissionId } = await seedDemoSubmission(store, PAPER));
    // A succeeded reproduction's outputs: the submission as run, with its log and the results it wrote.
    const outputs = path.join(blobDir, "outputs.tar.gz");
    const started = new Date("2025-01-01T00:00:00Z");
    fs.writeFileSync(
      outputs,
      await makeTarGz([
        { name: "reproduce.sh", data: "#!/bin/bash\nset -e\npython wagc.py > results.csv\n" },
        { name: "wagc.py", data: "print('a,b')\n" },
        { name: "reproduce.log", data: "epoch 1\nfinal accuracy 0.93\n" },
        { name: "reproduce.log.creation_time", data: started.toISOString() },
        { name: "results.csv", data: "a,b\n1,2\n" },
      ]),
    );
    const blob = await storeBlob(store, outputs);
    const job = await insertJob(handle.db, {
      kind: "reproduce",
      paperId: PAPER,
      submissionId,
      gpusRequired: 0,
      timeoutS: 60,
      maxAttempts: 1,
      createdBy: null,
    });
    await handle.db.execute(
      sql`UPDATE jobs SET status = 'succeeded', outputs_sha256 = ${blob.sha256}, finished_at = now() WHERE id = ${job.id}`,
    );
  });
  afterEach(async () => {
    await worker?.stop();
    worker = null;
    await server?.close();
    server = null;
    await handle.db.delete(jobs).where(sql`${jobs.kind} = 'judge'`);
  });
  afterAll(async () => {
    delete process.env.JOB_LEASE_S;
    delete process.env.JOB_HEARTBEAT_S;
    await stopRubricFeed();
    await handle?.close();
  });

  const workerOpts = () => ({
    log: () => {},
    databaseUrl: kind === "postgres" ? (handle as DbHandle & { url?: string }).url : undefined,
  });
  const config = async (fields: Partial<JudgeConfigInput> & Pick<JudgeConfigInput, "kind">) =>
    createJudgeConfig(store, testJudgeConfig({ name: `config ${++configNo}`, maxConcurrency: 1, ...fields }), null);
  const finished = (runId: string) =>
    pollUntil(
      `judge run ${runId} ended`,
      () => readJudgeRun(store, runId) as Promise<JudgeRunView>,
      (r) => !["queued", "running"].includes(r.status),
    );

  it("grades the demo submission with the dummy judge: every leaf 1, the grading's score 1, the job succeeded", async () => {
    const dummy = await config({ kind: "dummy", priceInputPerM: 0, priceCachedInputPerM: 0, priceOutputPerM: 0 });
    const [run] = await startJudgeRuns(
      store,
      { submissionIds: [submissionId], configId: dummy.id, variant: "code-dev" },
      null,
    );
    expect(run).toMatchObject({ status: "queued", leavesDone: 0, variant: "code-dev" });
    expect(run.leavesTotal).toBeGreaterThan(0);
    expect(run.estimate?.costUsd).toBe(0);
    worker = startJudgeWorker(store, workerOpts());
    const done = await finished(run.id);
    expect(done).toMatchObject({
      status: "succeeded",
      leavesDone: run.leavesTotal,
      leavesInvalid: 0,
      calls: 0,
      costUsd: 0,
    });
    const verdicts = await listVerdicts(handle.db, run.gradingId);
    expect(verdicts.length).toBe(run.leavesTotal);
    expect(verdicts.every((v) => v.score === 1 && v.valid)).toBe(true);
    const grading = await getGradingById(handle.db, run.gradingId);
    expect(grading).toMatchObject({ kind: "judge", score: 1, judgeType: "dummy", rubricView: "code-dev" });
    expect(grading?.gradedAt).not.toBeNull();
    // Its placeholder evidence is stored like a model's, so the demo has links to follow.
    expect(verdicts.every((v) => evidenceOf(v.judgeMetadata).length === 1)).toBe(true);
    // /jobs: the judge job's row carries its run's progress and grading; the reproduce job's none.
    const { jobs: rows } = await listJobsForStaff(store, { statuses: [], paperId: PAPER, limit: 10 });
    expect(rows.find((r) => r.id === run.jobId)?.judge).toEqual({
      runId: run.id,
      gradingId: run.gradingId,
      leavesTotal: run.leavesTotal,
      leavesDone: run.leavesTotal,
      leavesInvalid: 0,
      costUsd: 0,
    });
    expect(rows.filter((r) => r.kind === "reproduce").map((r) => r.judge)).toEqual([null]);
    // The paper's Submissions list: the latest judge run beside the latest reproduction (a judge job is not one).
    const listed = (await listPaperSubmissions(store, PAPER)).find((x) => x.id === submissionId)!;
    expect(listed.latestJudge).toEqual({
      runId: run.id,
      gradingId: run.gradingId,
      status: "succeeded",
      leavesDone: run.leavesTotal,
      leavesTotal: run.leavesTotal,
      leavesInvalid: 0,
    });
    expect(listed.latestJobId).not.toBe(run.jobId);
    expect(listed.latestJobStatus).toBe("succeeded");
  });

  it("an attempt that finds every leaf stored by an earlier one (which lost its lease before its last recompute) still stores the score", async () => {
    const dummy = await config({ kind: "dummy", priceInputPerM: 0, priceCachedInputPerM: 0, priceOutputPerM: 0 });
    const [run] = await startJudgeRuns(
      store,
      { submissionIds: [submissionId], configId: dummy.id, variant: "code-dev" },
      null,
    );
    worker = startJudgeWorker(store, workerOpts());
    expect(await finished(run.id)).toMatchObject({ status: "succeeded", leavesDone: run.leavesTotal });
    await worker.stop();
    worker = null;
    // What a stalled first attempt leaves: every verdict stored, a score from before the last ones,
    // and the job back in the queue after its lease expired.
    await handle.db.execute(sql`UPDATE gradings SET score = 0.25 WHERE id = ${run.gradingId}`);
    await handle.db.execute(
      sql`UPDATE jobs SET status = 'queued', lease_id = NULL, lease_expires_at = NULL, finished_at = NULL WHERE id = ${run.jobId}`,
    );
    worker = startJudgeWorker(store, workerOpts());
    expect(await finished(run.id)).toMatchObject({ status: "succeeded", leavesDone: run.leavesTotal, calls: 0 });
    expect((await listVerdicts(handle.db, run.gradingId)).length).toBe(run.leavesTotal);
    expect((await getGradingById(handle.db, run.gradingId))?.score).toBe(1);
  });

  it("grades a rubric without a Code Development leaf, Code-Dev, as its root alone (PaperBench's run_judge)", async () => {
    const paper = `${PAPER}-no-code-dev`;
    const rubric = JSON.parse(DEMO_RUBRIC) as { sub_tasks: { task_category: string | null; sub_tasks: unknown[] }[] };
    const recategorise = (n: { task_category: string | null; sub_tasks: unknown[] }) => {
      if (n.task_category === "Code Development") n.task_category = "Code Execution";
      for (const c of n.sub_tasks) recategorise(c as typeof n);
    };
    for (const c of rubric.sub_tasks) recategorise(c);
    await seedDemoRubric(handle, paper, JSON.stringify(rubric));
    const { submissionId: noCodeDev } = await seedDemoSubmission(store, paper);
    const dummy = await config({ kind: "dummy", priceInputPerM: 0, priceCachedInputPerM: 0, priceOutputPerM: 0 });
    const [run] = await startJudgeRuns(
      store,
      { submissionIds: [noCodeDev], configId: dummy.id, variant: "code-dev" },
      null,
    );
    expect(run.leavesTotal).toBe(1);
    worker = startJudgeWorker(store, workerOpts());
    expect(await finished(run.id)).toMatchObject({ status: "succeeded", leavesDone: 1, leavesInvalid: 0 });
    const verdicts = await listVerdicts(handle.db, run.gradingId);
    expect(verdicts).toHaveLength(1);
    expect(await getGradingById(handle.db, run.gradingId)).toMatchObject({ score: 1, rubricView: "code-dev" });
  });

  it("grades the full variant through the openai client: one call per leaf, its tokens the server's own, evidence kept", async () => {
    server = await startOpenAiTestServer({
      verdict: () => ({
        score: 1,
        explanation: "met",
        evidence: [{ path: "reproduce.sh", start_line: 1, end_line: 3 }],
      }),
    });
    const llm = await config({ kind: "llm", baseUrl: server.baseUrl, maxConcurrency: 4 });
    const [run] = await startJudgeRuns(
      store,
      { submissionIds: [submissionId], configId: llm.id, variant: "full" },
      null,
    );
    expect(run.estimate!.calls).toBeGreaterThan(0);
    worker = startJudgeWorker(store, workerOpts());
    const done = await finished(run.id);
    expect(done.status).toBe("succeeded");
    expect(done.leavesDone).toBe(run.leavesTotal);
    const totals = server.totals()[MODEL];
    expect({ calls: done.calls, in: done.inputTokens, cached: done.cachedInputTokens, out: done.outputTokens }).toEqual(
      {
        calls: totals.calls,
        in: totals.in,
        cached: totals.cached_in,
        out: totals.out,
      },
    );
    const stored = await getJudgeRunById(handle.db, run.id);
    expect(stored?.tokenUsage).toEqual({ [MODEL]: totals });
    const [verdict] = await listVerdicts(handle.db, run.gradingId);
    expect(verdict.judgeMetadata).toMatchObject({
      evidence: [{ path: "reproduce.sh", start_line: 1, end_line: 3 }],
      judge: "llm",
    });
  });

  it("resumes a run whose worker stopped mid-way with only the missing leaves", async () => {
    server = await startOpenAiTestServer({ latencyMs: 120 });
    const llm = await config({ kind: "llm", baseUrl: server.baseUrl, maxConcurrency: 1 });
    const [run] = await startJudgeRuns(
      store,
      { submissionIds: [submissionId], configId: llm.id, variant: "full" },
      null,
    );
    worker = startJudgeWorker(store, workerOpts());
    await pollUntil(
      "two verdicts stored",
      () => readJudgeRun(store, run.id) as Promise<JudgeRunView>,
      (r) => r.leavesDone >= 2,
    );
    await worker.stop();
    const storedBefore = (await readJudgeRun(store, run.id))!.leavesDone;
    const askedBefore = server.requests.length;
    expect(storedBefore).toBeLessThan(run.leavesTotal);
    worker = startJudgeWorker(store, workerOpts());
    const done = await finished(run.id);
    expect(done.status).toBe("succeeded");
    expect((await listVerdicts(handle.db, run.gradingId)).length).toBe(run.leavesTotal);
    // Each leaf stored before the stop was never asked again; the one in flight at the stop is asked once
    // more (and, on a loaded machine, its first request may reach the server only after the count above).
    const askedAfter = server.requests.length - askedBefore;
    expect(askedAfter).toBeGreaterThanOrEqual(run.leavesTotal - storedBefore);
    expect(askedAfter).toBeLessThanOrEqual(run.leavesTotal - storedBefore + 1);
  });

  it("stops making calls at once when the run is cancelled; the verdicts stored stay", async () => {
    server = await startOpenAiTestServer({ latencyMs: 150 });
    const llm = await config({ kind: "llm", baseUrl: server.baseUrl, maxConcurrency: 1 });
    const [run] = await startJudgeRuns(
      store,
      { submissionIds: [submissionId], configId: llm.id, variant: "full" },
      null,
    );
    worker = startJudgeWorker(store, workerOpts());
    await pollUntil(
      "a verdict stored",
      () => readJudgeRun(store, run.id) as Promise<JudgeRunView>,
      (r) => r.leavesDone >= 1,
    );
    await cancelJudgeRun(store, (await readJudgeRun(store, run.id))!, null);
    const askedAtCancel = server.requests.length;
    const done = await finished(run.id);
    expect(done.status).toBe("cancelled");
    await new Promise((r) => setTimeout(r, 500));
    // At most the call already in flight when the cancel arrived.
    expect(server.requests.length - askedAtCancel).toBeLessThanOrEqual(1);
    expect(done.leavesDone).toBeLessThan(run.leavesTotal);
    expect((await listVerdicts(handle.db, run.gradingId)).length).toBe(done.leavesDone);
  });
});
