import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { insertSyntheticGradings, type SyntheticGrading } from "@/db/leaderboard-fixture.testutil";
import { DEFAULT_POLICIES } from "@/lib/evaluations/default-policies";
import { numpyMean, standardError } from "@/lib/grading/stats";
import { AS_GRADED_BASIS } from "@/lib/leaderboard/types";
import { createEvaluation } from "@/server/evaluations/create-evaluation";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { getLeaderboard } from "./leaderboard";

const SPLITS = { duo: ["q1", "q2"] };
const run = (
  agent: string,
  runIndex: number,
  scores: Record<string, number>,
  extra: Partial<SyntheticGrading> = {},
): SyntheticGrading[] =>
  Object.entries(scores).map(([paper, score]) => ({ agent, paper, run: runIndex, score, ...extra }));

describe.each(testDatabaseKinds())("leaderboard rows from evaluations on %s", (kind) => {
  let handle: DbHandle;
  let evaluationId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await insertSyntheticGradings(handle.db, [
      // Evaluated: three runs; run 2's q2 reproduction failed but was judged (0.3), which counts as
      // PaperBench counts it whatever the policies; run 3's q1 grading has an invalid leaf.
      ...run("Evaluated", 1, { q1: 0.5, q2: 0.25 }),
      ...run("Evaluated", 2, { q1: 0.75, q2: 0.3 }),
      ...run("Evaluated", 3, { q1: 0.4, q2: 0.625 }),
      // Plain: no evaluation, as graded.
      ...run("Plain", 1, { q1: 0.45, q2: 0.45 }),
      // A human baseline: best of 3 attempts.
      ...run("ML PhD", 1, { q1: 0.3, q2: 0.6 }, { kind: "human" }),
      ...run("ML PhD", 2, { q1: 0.9, q2: 0.2 }, { kind: "human" }),
      ...run("ML PhD", 3, { q1: 0.1, q2: 0.4 }, { kind: "human" }),
    ]);
    const evaluation = await createEvaluation(
      handle,
      {
        name: "Evaluated on duo",
        agent: "Evaluated",
        split: "custom",
        paperIds: ["q1", "q2"],
        runs: 3,
        policies: { ...DEFAULT_POLICIES, judge_invalid_leaves: "exclude" },
        setup: { time_limit_h: 12, hardware: "1× A10", scaffold: "BasicAgent", tools: "web browser, python" },
      },
      null,
    );
    evaluationId = evaluation.id;
    const human = await createEvaluation(
      handle,
      {
        name: "PhD baseline",
        agent: "ML PhD",
        split: "custom",
        paperIds: ["q1", "q2"],
        runs: 3,
        aggregation: "best_of_n",
        isHuman: true,
        setup: { time_limit_h: 48 },
      },
      null,
    );
    await handle.db.execute(sql`
      UPDATE submissions s SET evaluation_id = e.id
      FROM evaluations e WHERE e.agent_id = s.agent_id
    `);
    await handle.db.execute(sql`
      UPDATE submissions s SET imported_result = ${JSON.stringify({ runId: null, runGroupId: "g2", reproduction: { exit_code: 1 }, judgeOutputMissing: false, codeOnly: null, resourcesProvided: null, score: 0.3 })}::jsonb
      FROM agents a WHERE a.id = s.agent_id AND a.name = 'Evaluated' AND s.run_index = 2 AND s.paper_id = 'q2'
    `);
    await handle.db.execute(sql`
      INSERT INTO grading_verdicts (grading_id, node_key, node_id, score, valid, source, rubric_version_id)
      SELECT g.id, gen_random_uuid(), 'leaf', 0, false, 'judge', g.rubric_version_id
      FROM gradings g JOIN submissions s ON s.id = g.submission_id JOIN agents a ON a.id = s.agent_id
      WHERE a.name = 'Evaluated' AND s.run_index = 3 AND s.paper_id = 'q1'
    `);
    expect(human.isHuman).toBe(true);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const board = () => getLeaderboard(handle, { split: "duo", variant: "full", dataSplits: SPLITS });
  const row = async (name: string) => (await board()).agents.find((a) => a.name === name)!;

  it("computes an evaluated agent's row by its policies and says which; other rows are as graded", async () => {
    const evaluated = await row("Evaluated");
    // The judged failed reproduction counts its 0.3 (run 2's q2), the invalid-leaf cell (run 3's q1) is excluded.
    const runs = [numpyMean([0.5, 0.25]), numpyMean([0.75, 0.3]), 0.625];
    expect(evaluated.runs).toEqual(runs.map((score, i) => ({ run: i + 1, score })));
    expect(evaluated.mean).toBe(numpyMean(runs));
    expect(evaluated.stdErr).toBe(standardError(runs));
    expect(evaluated.basis).toMatchObject({
      kind: "evaluation",
      evaluationId,
      evaluationName: "Evaluated on duo",
      aggregation: "mean",
      runs: 3,
      setup: { time_limit_h: 12, hardware: "1× A10", scaffold: "BasicAgent", tools: "web browser, python" },
      resourcesProvided: false,
      excludedCells: [
        { paperId: "q1", run: 3, state: "invalid_leaves", reason: "excluded: judge left invalid leaves" },
      ],
    });
    expect(evaluated.basis.label).toMatch(
      /^mean of 3 runs · every reproduction that ran is judged, failed or timed out too · a reproduction with nothing to judge counts 0 · invalid leaves excluded \(1\)/,
    );
    expect(evaluated.isHuman).toBe(false);
    expect(evaluated.agreement).toBeNull();
    const plain = await row("Plain");
    expect(plain.basis).toEqual(AS_GRADED_BASIS);
    expect(plain.mean).toBe(0.45);
  });

  it("exclude and count-as-0 give different numbers, and the board follows a policy change at once", async () => {
    const before = await row("Evaluated");
    await handle.db.execute(sql`
      UPDATE evaluations SET policies = ${JSON.stringify({ ...DEFAULT_POLICIES, reproduction_failed: "exclude", judge_invalid_leaves: "zero" })}::jsonb
      WHERE id = ${evaluationId}
    `);
    const after = await row("Evaluated");
    // Run 2's judged q2 still counts; run 3's invalid-leaf cell counts with the judge's score (its leaves at 0).
    const runs = [numpyMean([0.5, 0.25]), numpyMean([0.75, 0.3]), numpyMean([0.4, 0.625])];
    expect(after.mean).toBe(numpyMean(runs));
    expect(after.mean).not.toBe(before.mean);
    expect(after.basis.label).toMatch(
      /^mean of 3 runs · every reproduction that ran is judged, failed or timed out too · a failed reproduction with nothing to judge excluded · a timed-out one with nothing to judge counts 0 · invalid leaves count 0 \(1\)/,
    );
  });

  it("best of N takes each paper's best run, and says so", async () => {
    await handle.db.execute(sql`UPDATE evaluations SET aggregation = 'best_of_n' WHERE id = ${evaluationId}`);
    const evaluated = await row("Evaluated");
    expect(evaluated.mean).toBe(numpyMean([0.75, 0.625]));
    expect(evaluated.basis.label).toMatch(/^best of 3 · /);
    await handle.db.execute(sql`UPDATE evaluations SET aggregation = 'mean' WHERE id = ${evaluationId}`);
  });

  it("marks a human baseline: sorted in by its score, without a rank; agents' ranks are among agents", async () => {
    const view = await board();
    const human = view.agents.find((a) => a.name === "ML PhD")!;
    expect(human).toMatchObject({ isHuman: true, rank: null, mean: numpyMean([0.9, 0.6]) });
    expect(human.basis.label).toMatch(/^best of 3 · /);
    expect(human.basis.kind === "evaluation" && human.basis.setup.time_limit_h).toBe(48);
    // The human scores 0.75: first in order, and the agents below it are ranked 1 and 2.
    expect(view.agents.map((a) => [a.name, a.rank])).toEqual([
      ["ML PhD", null],
      ["Evaluated", 1],
      ["Plain", 2],
    ]);
  });

  it("on a per-paper board the evaluation's cells of that paper count", async () => {
    const view = await getLeaderboard(handle, { split: "duo", paper: "q2", variant: "full", dataSplits: SPLITS });
    const evaluated = view.agents.find((a) => a.name === "Evaluated")!;
    expect(evaluated.basis.kind).toBe("evaluation");
    // Policies now: failed excluded, but q2's run 2 was judged: all three runs count.
    expect(evaluated.runs).toEqual([
      { run: 1, score: 0.25 },
      { run: 2, score: 0.3 },
      { run: 3, score: 0.625 },
    ]);
  });
});
