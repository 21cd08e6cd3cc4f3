/**
 * The evaluation pipeline on both databases: a harness upload starts a cell; a reproduce job's end
 * (driven here by writing its status, then the event the queue sends) moves it on; each failure
 * policy (zero, exclude, retry up to n) gives its counted or excluded cell with the attempts made;
 * a step is taken once however often (or however concurrently) it is asked; the sweep takes a
 * step whose event was missed; a manual retry starts one more attempt; the judge worker's end of
 * a run grades a Code-Dev cell to done.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle, Store } from "@/db/client";
import { getEvaluationCell } from "@/db/queries/evaluation-cells";
import { getJobById, listJobsBySubmissionId } from "@/db/queries/jobs";
import { createUser } from "@/db/queries/users";
import type { EvaluationPolicies } from "@/lib/evaluations/schemas";
import type { JudgeConfigInput } from "@/lib/judge/config";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { startJudgeWorker } from "@/server/judge/worker/judge-worker";
import { cancelJob } from "@/server/jobs/cancel-job";
import { publishJobEvent } from "@/server/jobs/job-events";
import { retryJob } from "./retry-job";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { uploadSubmission } from "@/server/submissions/upload-submission";
import { evaluationUpload } from "../evaluation-upload";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { createEvaluation } from "../create-evaluation";
import { readEvaluationSummary } from "../read-evaluation";
import { advanceCell } from "./advance-cell";
import { readEvaluationMatrix } from "./read-matrix";
import { retryEvaluationCells } from "./retry-cells";
import { sweepEvaluationCells } from "./sweep-cells";
import { pollUntil } from "@/test/poll";

const PAPER = "pipeline-paper";
process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-pipeline-blobs-"));

const DUMMY: JudgeConfigInput = {
  name: "pipeline dummy",
  kind: "dummy",
  model: "dummy",
  baseUrl: null,
  apiKeyEnv: null,
  reasoningEffort: null,
  contextWindow: 128_000,
  maxConcurrency: 1,
  requestsPerMinute: null,
  tokensPerMinute: null,
  priceInputPerM: 0,
  priceCachedInputPerM: 0,
  priceOutputPerM: 0,
  mode: "efficient",
  parseModel: null,
};

const ZERO: EvaluationPolicies = {
  reproduction_failed: "zero",
  reproduction_timed_out: "zero",
  judge_invalid_leaves: "zero",
  blacklisted: "zero",
};

describe.each(testDatabaseKinds())("the evaluation pipeline on %s", (kind) => {
  let handle: DbHandle;
  let store: Store;
  let staffId: string;
  let archive: string;
  let evaluationNo = 0;
  let worker: { stop(): Promise<void> } | null = null;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    store = handle;
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    await seedDemoRubric(handle, PAPER);
    await createJudgeConfig(store, { ...DUMMY, isDefault: true }, null);
    archive = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rs-pipeline-")), "repo.tar.gz");
    fs.writeFileSync(
      archive,
      await makeTarGz([
        { name: "reproduce.sh", data: "exit 1\n" },
        { name: "main.py", data: "print('hi')\n" },
      ]),
    );
  });
  afterEach(async () => {
    await worker?.stop();
    worker = null;
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
    fs.rmSync(path.dirname(archive), { recursive: true, force: true });
  });

  /** An evaluation of one paper × `runs` with every run uploaded by the harness. */
  async function evaluationWith(opts: {
    policies?: Partial<EvaluationPolicies>;
    runs?: number;
    variant?: "full" | "code-dev";
  }) {
    const agent = `Pipeline agent ${++evaluationNo}`;
    const evaluation = await createEvaluation(
      store,
      {
        name: `pipeline ${evaluationNo}`,
        agent,
        paperIds: [PAPER],
        runs: opts.runs ?? 1,
        variant: opts.variant ?? "full",
        policies: { ...ZERO, ...opts.policies },
      },
      staffId,
    );
    const submissions: string[] = [];
    for (let run = 1; run <= (opts.runs ?? 1); run++) {
      const uploaded = await uploadSubmission(
        store,
        {
          agent,
          run,
          variant: opts.variant ?? "full",
          reproduce: false,
          replace: false,
          paperId: PAPER,
          userId: staffId,
          archive: { path: archive, name: "repo.tar.gz" },
        },
        evaluationUpload(evaluation.id),
      );
      submissions.push(uploaded.submissionId);
    }
    return { evaluation, submissions };
  }

  const jobsOf = async (submissionId: string, jobKind: "reproduce" | "judge") =>
    (
      await handle.db.execute(
        sql`SELECT id, status FROM jobs WHERE submission_id = ${submissionId} AND kind = ${jobKind} ORDER BY created_at, id`,
      )
    ).rows as { id: string; status: string }[];

  /**
   * The runner ends the cell's current reproduce job this way, and the queue's event follows.
   * Without `outputs` it left nothing to judge (as a runner that failed before reproduce.sh ran);
   * with them (the submission's own archive stands for the executed one) reproduce.sh ran.
   */
  async function endJob(
    submissionId: string,
    status: "failed" | "timed_out" | "succeeded",
    event = true,
    outputs = false,
  ) {
    const cell = (await getEvaluationCell(handle.db, submissionId))!;
    await handle.db.execute(
      sql`UPDATE jobs SET status = ${status}, exit_code = ${status === "failed" ? 1 : status === "succeeded" ? 0 : null}, finished_at = now(),
        failure_reason = ${status === "timed_out" ? "ran past its 60 s timeout" : null},
        outputs_sha256 = ${outputs ? sql`(SELECT archive_sha256 FROM submissions WHERE id = ${submissionId})` : null} WHERE id = ${cell.jobId}`,
    );
    if (event) await jobEnded(cell.jobId!);
  }

  /** The queue's `ended` event, as it publishes one after a job ends: the pipeline hears it as a subscriber. */
  async function jobEnded(jobId: string) {
    const job = (await getJobById(handle.db, jobId))!;
    await publishJobEvent(store, { type: "ended", job: { id: job.id, kind: job.kind, status: job.status } });
  }

  const cellOf = async (evaluationId: string, run = 1) =>
    (await readEvaluationMatrix(store, evaluationId)).cells.find((c) => c.run === run)!;

  it("a harness upload starts the cell: a full evaluation's reproduction is queued at once, attempt 1", async () => {
    const { evaluation, submissions } = await evaluationWith({});
    expect(await getEvaluationCell(handle.db, submissions[0])).toMatchObject({ stage: "reproducing", attempts: 1 });
    expect(await jobsOf(submissions[0], "reproduce")).toMatchObject([{ status: "queued" }]);
    const matrix = await readEvaluationMatrix(store, evaluation.id);
    expect(matrix.evaluation.judgeConfig?.name).toBe(DUMMY.name);
    expect(matrix.cells).toMatchObject([
      { paperId: PAPER, run: 1, stage: "reproducing", state: "pending", attempts: 1, failure: null },
    ]);
    expect(matrix.progress).toMatchObject({ done: 0, total: 1, etaS: null, gpuHours: 0 });
  });

  it("a failed reproduction under `zero` counts 0, saying why; asked again it changes nothing", async () => {
    const { evaluation, submissions } = await evaluationWith({});
    await endJob(submissions[0], "failed");
    const cell = await cellOf(evaluation.id);
    expect(cell).toMatchObject({
      stage: "counted",
      state: "failed",
      score: 0,
      attempts: 1,
      failure: { kind: "reproduction_failed" },
    });
    expect(cell.failure!.reason).toContain("exit code 1");
    expect(cell.failure!.reason).toContain("count as 0");
    expect(await advanceCell(store, submissions[0])).toMatchObject({ step: "wait" });
    await jobEnded(cell.jobId!);
    expect(await jobsOf(submissions[0], "reproduce")).toHaveLength(1);
    // GPU hours: each attempt's duration × the GPUs it claimed (here 30 minutes on 2 GPUs).
    await handle.db
      .execute(sql`INSERT INTO job_attempts (job_id, attempt, lease_id, gpu_indices, started_at, finished_at, status)
      VALUES (${cell.jobId}, 1, gen_random_uuid(), '{0,1}', now() - interval '30 minutes', now(), 'failed')`);
    const matrix = await readEvaluationMatrix(store, evaluation.id);
    expect(matrix.result.runScores).toEqual([0]);
    expect(matrix.progress).toMatchObject({ done: 1, total: 1 });
    expect(matrix.progress.gpuHours).toBeCloseTo(1, 3);
  });

  it("a reproduction that ran and exited 1, or timed out, is judged whatever the policy, as PaperBench judges it", async () => {
    for (const status of ["failed", "timed_out"] as const) {
      const { evaluation, submissions } = await evaluationWith({
        policies: { reproduction_failed: "exclude", reproduction_timed_out: "exclude" },
      });
      await endJob(submissions[0], status, true, true);
      expect(await getEvaluationCell(handle.db, submissions[0])).toMatchObject({
        stage: "judging",
        attempts: 1,
        failureKind: null,
      });
      expect(await jobsOf(submissions[0], "judge")).toHaveLength(1);
      expect(await cellOf(evaluation.id)).toMatchObject({ stage: "judging", failure: null });
    }
  });

  it("Retry of a failed cell's reproduce job on /jobs moves the cell on with the new job, as the matrix's Retry; a running cell's job is refused", async () => {
    const { evaluation, submissions } = await evaluationWith({ runs: 2 });
    await endJob(submissions[0], "failed");
    const failed = (await getEvaluationCell(handle.db, submissions[0]))!;
    expect(failed).toMatchObject({ stage: "failed", attempts: 1 });
    const [job] = await listJobsBySubmissionId(handle.db, submissions[0]);
    const { jobId } = await retryJob(store, job, staffId);
    expect(await getEvaluationCell(handle.db, submissions[0])).toMatchObject({
      stage: "reproducing",
      attempts: 2,
      jobId,
    });
    expect(await cellOf(evaluation.id)).toMatchObject({ stage: "reproducing", attempts: 2, jobId });
    // Its new job's end moves the cell on: here it ran and exited 1, so it is judged.
    await endJob(submissions[0], "failed", true, true);
    expect(await getEvaluationCell(handle.db, submissions[0])).toMatchObject({ stage: "judging", attempts: 2 });
    // The old job again: the cell is not failed now, so nothing the evaluation would not see is queued.
    await expect(retryJob(store, job, staffId)).rejects.toMatchObject({ code: "conflict" });
    expect(await jobsOf(submissions[0], "reproduce")).toHaveLength(2);
  });

  it("a cell's reproduce job cancelled on /jobs moves the cell on (the queue's `cancelled` event), by its policy", async () => {
    const { evaluation, submissions } = await evaluationWith({ policies: { reproduction_failed: "exclude" } });
    const [job] = await listJobsBySubmissionId(handle.db, submissions[0]);
    expect(job.status).toBe("queued");
    await cancelJob(store, job, staffId);
    const cell = await cellOf(evaluation.id);
    expect(cell).toMatchObject({ stage: "excluded", failure: { kind: "reproduction_failed" } });
    expect(cell.failure!.reason).toContain("reproduction cancelled");
  });

  it("a timed-out reproduction under `exclude` is left out of its run with the reason", async () => {
    const { evaluation, submissions } = await evaluationWith({ policies: { reproduction_timed_out: "exclude" } });
    await endJob(submissions[0], "timed_out");
    const matrix = await readEvaluationMatrix(store, evaluation.id);
    expect(matrix.cells[0]).toMatchObject({
      stage: "excluded",
      state: "timed_out",
      attempts: 1,
      failure: { kind: "reproduction_timed_out" },
    });
    expect(matrix.result.excluded).toEqual([{ paperId: PAPER, run: 1, reason: "excluded: reproduction timed out" }]);
    expect(matrix.result.runScores).toEqual([null]);
  });

  it("`{retry: 2}` runs the reproduction 3 times in all, then excludes it after 2 retries; two events at once retry once", async () => {
    const { evaluation, submissions } = await evaluationWith({ policies: { reproduction_failed: { retry: 2 } } });
    const id = submissions[0];
    await endJob(id, "failed", false);
    const jobId = (await getEvaluationCell(handle.db, id))!.jobId!;
    await Promise.all([jobEnded(jobId), jobEnded(jobId), advanceCell(store, id)]);
    expect(await getEvaluationCell(handle.db, id)).toMatchObject({
      stage: "reproducing",
      attempts: 2,
      failureKind: "reproduction_failed",
    });
    expect(await jobsOf(id, "reproduce")).toMatchObject([{ status: "failed" }, { status: "queued" }]);
    // While it retries, the matrix shows the attempt and the last failure.
    expect(await cellOf(evaluation.id)).toMatchObject({
      stage: "reproducing",
      attempts: 2,
      failure: { kind: "reproduction_failed" },
    });

    await endJob(id, "failed");
    expect(await getEvaluationCell(handle.db, id)).toMatchObject({ stage: "reproducing", attempts: 3 });
    await endJob(id, "failed");
    expect(await getEvaluationCell(handle.db, id)).toMatchObject({ stage: "failed", attempts: 3 });
    expect(await jobsOf(id, "reproduce")).toHaveLength(3);
    const matrix = await readEvaluationMatrix(store, evaluation.id);
    expect(matrix.cells[0]).toMatchObject({ stage: "excluded", attempts: 3 });
    expect(matrix.result.excluded).toEqual([
      { paperId: PAPER, run: 1, reason: "excluded: reproduction failed after 2 retries" },
    ]);
    // The summary (export, leaderboard) reads the pipeline's attempts the same way.
    expect((await readEvaluationSummary(store, evaluation.id)).result.excluded).toEqual(matrix.result.excluded);
  });

  it("the sweep takes the step of a job whose event was missed, and leaves a running one", async () => {
    const { evaluation, submissions } = await evaluationWith({ runs: 2 });
    await endJob(submissions[0], "failed", false);
    // Within the grace period the event may still come: nothing yet.
    await sweepEvaluationCells(store);
    expect(await getEvaluationCell(handle.db, submissions[0])).toMatchObject({ stage: "reproducing" });
    await handle.db.execute(
      sql`UPDATE evaluation_cells SET updated_at = now() - interval '1 minute' WHERE evaluation_id = ${evaluation.id}`,
    );
    expect(await sweepEvaluationCells(store)).toBe(1);
    expect(await getEvaluationCell(handle.db, submissions[0])).toMatchObject({ stage: "failed" });
    expect(await getEvaluationCell(handle.db, submissions[1])).toMatchObject({ stage: "reproducing" });
    expect(await sweepEvaluationCells(store)).toBe(0);
  });

  it("a manual retry of every failed cell starts one more attempt; a cell still running is left alone", async () => {
    const { evaluation, submissions } = await evaluationWith({ runs: 2 });
    await endJob(submissions[0], "failed");
    expect(await retryEvaluationCells(store, evaluation.id, { allFailed: true }, staffId)).toEqual({ retried: 1 });
    expect(await getEvaluationCell(handle.db, submissions[0])).toMatchObject({ stage: "reproducing", attempts: 2 });
    expect(await jobsOf(submissions[0], "reproduce")).toHaveLength(2);
    expect(await retryEvaluationCells(store, evaluation.id, { cells: [{ paperId: PAPER, run: 2 }] }, staffId)).toEqual({
      retried: 0,
    });
    await expect(
      retryEvaluationCells(store, evaluation.id, { cells: [{ paperId: "nope", run: 1 }] }, staffId),
    ).rejects.toMatchObject({ code: "bad_request" });
  });

  it("a Code-Dev cell is judged at once; a judge run with invalid leaves under `{retry: 1}` is judged again, then excluded after 1 retry", async () => {
    const { evaluation, submissions } = await evaluationWith({
      variant: "code-dev",
      policies: { judge_invalid_leaves: { retry: 1 } },
    });
    const id = submissions[0];
    // Code-Dev skips the reproduction: the judge run is started at upload.
    expect(await getEvaluationCell(handle.db, id)).toMatchObject({ stage: "judging", attempts: 1 });
    expect(await jobsOf(id, "reproduce")).toHaveLength(0);
    const endRun = async () => {
      const cell = (await getEvaluationCell(handle.db, id))!;
      const [{ job_id: jobId }] = (
        await handle.db.execute(sql`SELECT job_id FROM judge_runs WHERE id = ${cell.judgeRunId}`)
      ).rows as { job_id: string }[];
      await handle.db.execute(sql`UPDATE judge_runs SET leaves_invalid = 2 WHERE id = ${cell.judgeRunId}`);
      await handle.db.execute(sql`UPDATE jobs SET status = 'succeeded', finished_at = now() WHERE id = ${jobId}`);
      await jobEnded(jobId);
    };
    await endRun();
    expect(await getEvaluationCell(handle.db, id)).toMatchObject({
      stage: "judging",
      attempts: 2,
      failureKind: "judge_invalid_leaves",
    });
    expect(await jobsOf(id, "judge")).toHaveLength(2);
    await endRun();
    expect(await getEvaluationCell(handle.db, id)).toMatchObject({
      stage: "done",
      attempts: 2,
      failureKind: "judge_invalid_leaves",
    });
    // Judge tokens and cost add up over every attempt's run.
    await handle.db.execute(
      sql`UPDATE judge_runs SET input_tokens = 1000, cached_input_tokens = 100, output_tokens = 10, cost_usd = 0.25 WHERE submission_id = ${id}`,
    );
    const matrix = await readEvaluationMatrix(store, evaluation.id);
    expect(matrix.progress).toMatchObject({ judgeTokens: { input: 2000, cachedInput: 200, output: 20 }, costUsd: 0.5 });
    expect(matrix.cells[0]).toMatchObject({ stage: "excluded", state: "invalid_leaves", attempts: 2 });
    expect(matrix.result.excluded[0].reason).toBe("excluded: judge left invalid leaves after 1 retry");
  });

  it("the judge worker's end of a run grades a Code-Dev cell to done: counted with the dummy judge's 1", async () => {
    const { evaluation, submissions } = await evaluationWith({ variant: "code-dev" });
    worker = startJudgeWorker(store, {
      log: () => {},
      databaseUrl: kind === "postgres" ? (handle as DbHandle & { url?: string }).url : undefined,
    });
    await pollUntil(
      "the cell done",
      () => getEvaluationCell(handle.db, submissions[0]),
      (cell) => cell?.stage === "done",
    );
    const matrix = await readEvaluationMatrix(store, evaluation.id);
    expect(matrix.cells[0]).toMatchObject({
      stage: "counted",
      state: "succeeded",
      score: 1,
      attempts: 1,
      failure: null,
    });
    expect(matrix.cells[0].href.grading).toBe(`/gradings/${matrix.cells[0].gradingId}`);
    expect(matrix.result).toMatchObject({ runScores: [1], mean: 1 });
    expect(matrix.progress.done).toBe(1);
    expect(matrix.progress.etaS).toBeNull();
  });
});
