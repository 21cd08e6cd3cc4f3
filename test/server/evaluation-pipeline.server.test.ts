/**
 * The evaluation pipeline end to end (issue 14 item 2), on the built studio with PGlite: its
 * embedded runner reproduces, its in-process worker judges with the Dummy judge. An agent's
 * harness uploads the demo submission as 3 runs of the demo paper into an evaluation; the matrix
 * fills in (its stream says when) until every cell is counted, and the members' leaderboard shows
 * the agent with its 3 runs, marked as a placeholder judge's (the public one never shows it). A
 * reproduce.sh that exits 1 is judged whatever the policy, as PaperBench judges it; a reproduction
 * cancelled before it gave anything (nothing to judge) follows its policy: `zero` counts 0,
 * `exclude` leaves it out; Retry of its job on /jobs moves the cell on.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluationMatrix } from "@/lib/evaluations/matrix";
import type { FailurePolicy } from "@/lib/evaluations/schemas";
import type { LeaderboardView } from "@/lib/leaderboard/types";
import { DEMO_PAPER_ID, api, waitFor } from "./harness";
import { demoSubmissionFiles, tarGz } from "./runner-harness";
import { studioSuite } from "./studio-suite";

describe("an evaluation through the pipeline", () => {
  let dummyId = "";
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-evaluation-pipeline-"));

  // Registered before studioSuite, so it runs last (afterAll hooks run in reverse order): after the
  // studio, whose BLOB_DIR is in here, has stopped.
  afterAll(async () => {
    fs.rmSync(work, { recursive: true, force: true });
  });
  const studio = studioSuite("pglite", "evaluation-pipeline", {
    env: {
      BLOB_DIR: path.join(work, "blobs"),
      EMBEDDED_RUNNER: "1",
      EMBEDDED_RUNNER_BACKEND: "local",
      EMBEDDED_RUNNER_MAX_JOBS: "3",
    },
    timeout: 120_000,
  });
  beforeAll(async () => {
    const configs = await api<{ configs: { id: string; name: string }[] }>(
      studio.url,
      studio.staff,
      "GET",
      "/api/judge/configs",
    );
    dummyId = configs.body.configs.find((c) => c.name === "Dummy judge")!.id;
  }, 120_000);

  async function createEvaluation(
    agent: string,
    runs: number,
    policies: Record<string, FailurePolicy> = {},
  ): Promise<string> {
    const res = await api<{ evaluation: { id: string; judgeConfigId: string | null } }>(
      studio.url,
      studio.staff,
      "POST",
      "/api/evaluations",
      {
        name: `${agent} on the demo paper`,
        agent,
        paperIds: [DEMO_PAPER_ID],
        runs,
        variant: "full",
        judgeConfigId: dummyId,
        policies: {
          reproduction_failed: "zero",
          reproduction_timed_out: "zero",
          judge_invalid_leaves: "zero",
          ...policies,
        },
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.evaluation.judgeConfigId).toBe(dummyId);
    return res.body.evaluation.id;
  }

  /** The harness's upload: one submission at a time with the evaluation's id. */
  async function harnessUpload(evaluationId: string, agent: string, run: number, archive: Buffer) {
    const q = new URLSearchParams({
      agent,
      run: String(run),
      name: "submission.tar.gz",
      variant: "full",
      evaluation: evaluationId,
    });
    const res = await fetch(`${studio.url}/api/papers/${DEMO_PAPER_ID}/submissions?${q}`, {
      method: "POST",
      headers: { cookie: studio.staff, "content-type": "application/gzip", origin: studio.url },
      body: new Uint8Array(archive),
    });
    const body = (await res.json()) as { submissionId?: string; jobId?: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    // The pipeline queued the reproduction: the answer names its job.
    expect(body.jobId).toBeTruthy();
  }

  const matrixOf = async (evaluationId: string) => {
    const res = await api<EvaluationMatrix>(studio.url, studio.staff, "GET", `/api/evaluations/${evaluationId}/matrix`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const allDone = (evaluationId: string) =>
    waitFor(
      `every cell of ${evaluationId} done`,
      async () => {
        const m = await matrixOf(evaluationId);
        return m.progress.done === m.progress.total ? m : undefined;
      },
      250,
    );

  /** Opens the matrix's SSE stream and collects its events' names. */
  async function followStream(evaluationId: string) {
    const controller = new AbortController();
    const res = await fetch(`${studio.url}/api/evaluations/${evaluationId}/stream`, {
      headers: { cookie: studio.staff },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events: string[] = [];
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      let buffered = "";
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        buffered += decoder.decode(value, { stream: true });
        for (const m of buffered.matchAll(/^event: (\S+)$/gm)) events.push(m[1]);
        buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
      }
    })();
    return { events, close: () => controller.abort() };
  }

  it("the demo submission × 3 runs: reproduced, judged and counted, live on the matrix, then on the members' leaderboard only (the Dummy judge is a placeholder)", async () => {
    const agent = "Pipeline agent";
    const evaluationId = await createEvaluation(agent, 3);
    const stream = await followStream(evaluationId);
    const archive = await tarGz(demoSubmissionFiles());
    for (let run = 1; run <= 3; run++) await harnessUpload(evaluationId, agent, run, archive);

    const first = await matrixOf(evaluationId);
    expect(first.evaluation).toMatchObject({
      agent,
      runs: 3,
      variant: "full",
      judgeConfig: { id: dummyId, name: "Dummy judge" },
    });
    expect(first.cells.map((c) => c.run)).toEqual([1, 2, 3]);
    expect(first.cells.every((c) => ["reproducing", "judging", "counted"].includes(c.stage))).toBe(true);

    const done = await allDone(evaluationId);
    for (const cell of done.cells) {
      expect(cell).toMatchObject({ stage: "counted", state: "succeeded", score: 1, attempts: 1, failure: null });
      expect(cell.href.grading).toBe(`/gradings/${cell.gradingId}`);
      expect(cell.jobId && cell.judgeRunId).toBeTruthy();
    }
    expect(done.result).toMatchObject({ runScores: [1, 1, 1], mean: 1, n: 3, excluded: [] });
    expect(done.progress).toMatchObject({ done: 3, total: 3, etaS: null, costUsd: 0 });
    // The stream said a cell changed as they moved on.
    expect(stream.events.filter((e) => e === "cell").length).toBeGreaterThan(0);
    stream.close();

    // The Dummy judge is a placeholder: a signed-in member sees the agent's 3 runs, unranked and
    // marked; the public (signed out) board never shows it.
    const board = await waitFor(
      "the agent on the members' leaderboard",
      async () => {
        const res = await api<LeaderboardView>(
          studio.url,
          studio.staff,
          "GET",
          `/api/leaderboard?paper=${DEMO_PAPER_ID}&variant=full`,
        );
        return res.body.agents.find((a) => a.name === agent && a.nRuns === 3);
      },
      200,
    );
    expect(board.runs.map((r) => r.score)).toEqual([1, 1, 1]);
    expect(board.mean).toBe(1);
    expect(board.rank).toBeNull();
    expect(board.method).toEqual({ kind: "placeholder", label: "placeholder judge — not public" });
    const publicRes = await fetch(`${studio.url}/api/leaderboard?paper=${DEMO_PAPER_ID}&variant=full`);
    const publicView = (await publicRes.json()) as LeaderboardView;
    expect(publicView.agents.map((a) => a.name)).not.toContain(agent);
    expect(JSON.stringify(publicView)).not.toContain(agent);
    // The grading says how it was made.
    const grading = await api<{ grading: { provenance: { judgeKind: string; mode: string; policies: unknown } } }>(
      studio.url,
      studio.staff,
      "GET",
      `/api/gradings/${done.cells[0].gradingId}`,
    );
    expect(grading.body.grading.provenance).toMatchObject({
      judgeKind: "dummy",
      mode: "efficient",
      policies: { reproduction_failed: "zero" },
    });
  }, 240_000);

  it("a reproduction that exits 1 is judged whatever the policy; one cancelled before it gave anything counts 0 under `zero`, is excluded under `exclude`, and /jobs Retry moves its cell on", async () => {
    // Judged as PaperBench judges it: the policy (here `exclude`) decides only what has nothing to judge.
    const judged = await createEvaluation("Exit-1 agent", 1, { reproduction_failed: "exclude" });
    await harnessUpload(
      judged,
      "Exit-1 agent",
      1,
      await tarGz({ "reproduce.sh": "#!/usr/bin/env bash\necho failing on purpose\nexit 1\n" }),
    );
    const exit1 = await allDone(judged);
    expect(exit1.cells[0]).toMatchObject({
      stage: "counted",
      state: "succeeded",
      score: 1,
      attempts: 1,
      failure: null,
    });
    expect(exit1.cells[0].gradingId).toBeTruthy();
    expect(exit1.cells[0].reproduction).toMatch(/^reproduce\.sh exited 1 after /);

    const endless = await tarGz({ "reproduce.sh": "#!/usr/bin/env bash\necho started\nsleep 600\n" });
    const cancelCurrentJob = async (evaluationId: string, attempt: number) => {
      const cell = await waitFor(
        `attempt ${attempt} reproducing`,
        async () => {
          const c = (await matrixOf(evaluationId)).cells[0];
          return c.stage === "reproducing" && c.attempts === attempt && c.jobId ? c : undefined;
        },
        100,
      );
      expect((await api(studio.url, studio.staff, "POST", `/api/jobs/${cell.jobId}/cancel`)).status).toBe(200);
      return cell.jobId!;
    };
    const cases: { agent: string; policy: FailurePolicy }[] = [
      { agent: "Cancelled agent · zero", policy: "zero" },
      { agent: "Cancelled agent · exclude", policy: "exclude" },
    ];
    const ids: string[] = [];
    for (const c of cases) {
      const id = await createEvaluation(c.agent, 1, { reproduction_failed: c.policy });
      await harnessUpload(id, c.agent, 1, endless);
      ids.push(id);
    }
    const cancelledJob = await cancelCurrentJob(ids[0], 1);
    await cancelCurrentJob(ids[1], 1);
    const [zero, exclude] = await Promise.all(ids.map((id) => allDone(id)));

    expect(zero.cells[0]).toMatchObject({
      stage: "counted",
      state: "failed",
      score: 0,
      attempts: 1,
      failure: { kind: "reproduction_failed" },
      gradingId: null,
    });
    expect(zero.cells[0].failure!.reason).toContain("nothing to judge");
    expect(zero.cells[0].failure!.reason).toContain("count as 0");
    expect(zero.result).toMatchObject({ runScores: [0], mean: 0, excluded: [] });
    expect(exclude.cells[0]).toMatchObject({
      stage: "excluded",
      state: "failed",
      attempts: 1,
      failure: { kind: "reproduction_failed" },
    });
    expect(exclude.result.excluded).toEqual([
      { paperId: DEMO_PAPER_ID, run: 1, reason: "excluded: reproduction failed" },
    ]);

    // Retry of the cancelled job on /jobs: the cell takes its 2nd attempt with the new job, as the matrix's Retry would.
    const retried = await api<{ jobId: string }>(studio.url, studio.staff, "POST", `/api/jobs/${cancelledJob}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(await cancelCurrentJob(ids[0], 2)).toBe(retried.body.jobId);
    const again = await waitFor(
      "the 2nd attempt counted",
      async () => {
        const m = await matrixOf(ids[0]);
        return m.cells[0].attempts === 2 && m.cells[0].stage === "counted" ? m : undefined;
      },
      250,
    );
    expect(again.cells[0]).toMatchObject({ score: 0, failure: { kind: "reproduction_failed" } });
  }, 240_000);
});
