import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { insertSyntheticGradings, type SyntheticGrading } from "@/db/leaderboard-fixture.testutil";
import { AppError } from "@/lib/errors";
import { numpyMean, numpyStd } from "@/lib/grading/stats";
import type { Variant } from "@/lib/grading/variant";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { getLeaderboardAgentGradings } from "./drill-down";
import { getLeaderboard } from "./leaderboard";

const SPLITS = { all: ["p1", "p2", "p3"], lite: ["p1", "p2"], empty: [] as string[] };

/** One run of an agent on every paper given, with these scores. */
const run = (
  agent: string,
  runIndex: number,
  scores: Record<string, number>,
  extra: Partial<SyntheticGrading> = {},
): SyntheticGrading[] =>
  Object.entries(scores).map(([paper, score]) => ({ agent, paper, run: runIndex, score, ...extra }));

describe.each(testDatabaseKinds())("leaderboard queries on %s", (kind) => {
  let handle: DbHandle;
  let ids: string[];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    ids = await insertSyntheticGradings(handle.db, [
      // Alpha: three complete runs (means 0.2, 0.4, 0.9) and a run that misses p3.
      ...run("Alpha", 1, { p1: 0.1, p2: 0.2, p3: 0.3 }),
      ...run("Alpha", 2, { p1: 0.4, p2: 0.4, p3: 0.4 }),
      ...run("Alpha", 3, { p1: 0.9, p2: 0.8, p3: 1.0 }),
      ...run("Alpha", 4, { p1: 0.5, p2: 0.5 }),
      // Beta: a single complete run; its p1 was graded three times: an old judge grading, a
      // human grading, and the latest judge grading, which counts.
      { agent: "Beta", paper: "p1", run: 1, score: 0.0, createdAt: "2025-01-01T00:00:00Z" },
      { agent: "Beta", paper: "p1", run: 1, score: 1.0, kind: "human", createdAt: "2025-03-01T00:00:00Z" },
      { agent: "Beta", paper: "p1", run: 1, score: 0.6, judgeModel: "judge-b", createdAt: "2025-02-01T00:00:00Z" },
      ...run("Beta", 1, { p2: 0.6, p3: 0.9 }, { judgeModel: "judge-b" }),
      // Gamma: only a human graded it (it counts, as reviewed); one complete run.
      ...run("Gamma", 1, { p1: 0.2, p2: 0.2, p3: 0.2 }, { kind: "human" }),
      // Delta: no complete run.
      ...run("Delta", 1, { p1: 1 }),
      // Code-Dev runs: a board of their own.
      ...run("Alpha", 1, { p1: 0.7, p2: 0.7, p3: 0.7 }, { variant: "code-dev" }),
      // A paper outside the data's splits.
      ...run("Alpha", 1, { extra: 0.5 }),
    ]);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const board = (
    split: string | undefined,
    variant: Variant = "full",
    dataSplits: Record<string, string[]> = SPLITS,
    paper?: string,
  ) => getLeaderboard(handle, { split, variant, dataSplits, paper });

  it("averages runs over the split's papers, then the complete runs, ± standard error with ddof 1", async () => {
    const view = await board("all");
    expect(view.papers.map((p) => p.id)).toEqual(["p1", "p2", "p3"]);
    expect(view.papers[0].title).toBe("Synthetic paper p1");
    const alpha = view.agents.find((a) => a.name === "Alpha")!;
    const runMeans = [numpyMean([0.1, 0.2, 0.3]), numpyMean([0.4, 0.4, 0.4]), numpyMean([0.9, 0.8, 1.0])];
    expect(alpha.runs).toEqual(runMeans.map((score, i) => ({ run: i + 1, score })));
    expect(alpha.mean).toBe(numpyMean(runMeans));
    expect(alpha.stdErr).toBe(numpyStd(runMeans, 1) / Math.sqrt(3));
    expect(alpha.stdErr).toBeCloseTo(Math.sqrt(0.13 / 3), 12);
    expect(alpha.nRuns).toBe(3);
  });

  it("leaves out runs that did not grade every paper, saying why, and counts them", async () => {
    const view = await board("all");
    const alpha = view.agents.find((a) => a.name === "Alpha")!;
    expect(alpha.excludedRuns).toEqual([
      { run: 4, reason: "incomplete", missingPapers: ["p3"], pendingPapers: [], message: "missing 1 of 3 papers: p3" },
    ]);
    const delta = view.agents.find((a) => a.name === "Delta")!;
    expect(delta).toMatchObject({ rank: null, mean: null, stdErr: null, nRuns: 0, isDemo: false });
    // Not ranked, but shown with the papers it has and the mean over them.
    expect(delta.coverage).toEqual({ papers: 1, of: 3, mean: 1 });
    expect(delta.excludedRuns[0].missingPapers).toEqual(["p2", "p3"]);
    expect(view.excluded).toEqual({ runs: 2, incomplete: 2, duplicatePapers: 0, pendingReview: 0 });
    // On the lite split (p1, p2) Alpha's fourth run is complete.
    const lite = await board("lite");
    expect(lite.agents.find((a) => a.name === "Alpha")!.nRuns).toBe(4);
  });

  it("gives a single run no standard error", async () => {
    const gamma = (await board("all")).agents.find((a) => a.name === "Gamma")!;
    expect(gamma.nRuns).toBe(1);
    expect(gamma.mean).toBeCloseTo(0.2, 15);
    expect(gamma.stdErr).toBeNull();
  });

  it("counts the latest judge grading of a run (not an older one, not a human's), a human's when no judge graded", async () => {
    const view = await board("all");
    const beta = view.agents.find((a) => a.name === "Beta")!;
    expect(beta.runs).toEqual([{ run: 1, score: numpyMean([0.6, 0.6, 0.9]) }]);
    expect(beta.judgeModels).toEqual(["judge-b"]);
    expect(beta.perPaper[0]).toEqual({ paperId: "p1", mean: 0.6, stdErr: null, nRuns: 1, pendingRuns: 0 });
    // Ranked by mean: Beta 0.7, Alpha 0.5, Gamma 0.2, then Delta without a complete run.
    expect(view.agents.map((a) => [a.rank, a.name])).toEqual([
      [1, "Beta"],
      [2, "Alpha"],
      [3, "Gamma"],
      [null, "Delta"],
    ]);
  });

  it("breaks down per paper over every run that graded it", async () => {
    const alpha = (await board("all")).agents.find((a) => a.name === "Alpha")!;
    const p1 = [0.1, 0.4, 0.9, 0.5];
    expect(alpha.perPaper[0]).toEqual({
      paperId: "p1",
      mean: numpyMean(p1),
      stdErr: numpyStd(p1, 1) / 2,
      nRuns: 4,
      pendingRuns: 0,
    });
    expect(alpha.perPaper[2].nRuns).toBe(3);
  });

  it("keeps variants apart", async () => {
    const codeDev = await board("all", "code-dev");
    expect(codeDev.agents.map((a) => [a.name, a.mean, a.nRuns])).toEqual([["Alpha", numpyMean([0.7, 0.7, 0.7]), 1]]);
  });

  it("marks a row human-reviewed only when every counted grading was reviewed", async () => {
    let view = await board("all");
    expect(view.agents.find((a) => a.name === "Gamma")!).toMatchObject({
      humanReviewed: true,
      reviewedGradings: 3,
      countedGradings: 3,
    });
    expect(view.agents.find((a) => a.name === "Beta")!.humanReviewed).toBe(false);
    // A review covers Beta's p1 and p2: still one grading short.
    await handle.db.execute(sql`
      UPDATE gradings g SET reviewed_at = now()
      FROM submissions s JOIN agents a ON a.id = s.agent_id
      WHERE g.submission_id = s.id AND a.name = 'Beta' AND s.paper_id IN ('p1', 'p2') AND g.kind = 'judge' AND g.judge_model = 'judge-b'
    `);
    view = await board("all");
    expect(view.agents.find((a) => a.name === "Beta")!).toMatchObject({
      humanReviewed: false,
      reviewedGradings: 2,
      countedGradings: 3,
    });
    await handle.db.execute(sql`
      UPDATE gradings g SET reviewed_at = now()
      FROM submissions s JOIN agents a ON a.id = s.agent_id
      WHERE g.submission_id = s.id AND a.name = 'Beta' AND s.paper_id = 'p3'
    `);
    view = await board("all");
    expect(view.agents.find((a) => a.name === "Beta")!).toMatchObject({ humanReviewed: true, reviewedGradings: 3 });
  });

  it("follows a changed score (an override) at once", async () => {
    const before = (await board("all")).agents.find((a) => a.name === "Gamma")!.mean;
    await handle.db.execute(sql`
      UPDATE gradings g SET score = 0.5
      FROM submissions s JOIN agents a ON a.id = s.agent_id
      WHERE g.submission_id = s.id AND a.name = 'Gamma' AND s.paper_id = 'p1'
    `);
    const after = (await board("all")).agents.find((a) => a.name === "Gamma")!.mean;
    expect(before).toBeCloseTo(0.2, 15);
    expect(after).toBe(numpyMean([0.5, 0.2, 0.2]));
    await handle.db.execute(sql`
      UPDATE gradings g SET score = 0.2
      FROM submissions s JOIN agents a ON a.id = s.agent_id
      WHERE g.submission_id = s.id AND a.name = 'Gamma' AND s.paper_id = 'p1'
    `);
  });

  it("may reuse a recent check for changes (the public page's and API's short staleness)", async () => {
    const gamma = async (maxStaleMs: number) =>
      (await getLeaderboard(handle, { split: "all", variant: "full", dataSplits: SPLITS, maxStaleMs })).agents.find(
        (a) => a.name === "Gamma",
      )!.mean;
    const before = await gamma(0);
    expect(await gamma(60_000)).toBe(before);
    await handle.db.execute(sql`
      UPDATE gradings g SET score = 0.8
      FROM submissions s JOIN agents a ON a.id = s.agent_id
      WHERE g.submission_id = s.id AND a.name = 'Gamma' AND s.paper_id = 'p1'
    `);
    expect(await gamma(60_000)).toBe(before);
    expect(await gamma(0)).toBe(numpyMean([0.8, 0.2, 0.2]));
    await handle.db.execute(sql`
      UPDATE gradings g SET score = 0.2
      FROM submissions s JOIN agents a ON a.id = s.agent_id
      WHERE g.submission_id = s.id AND a.name = 'Gamma' AND s.paper_id = 'p1'
    `);
    expect(await gamma(0)).toBe(before);
  });

  it("offers the data's splits, a studio split for papers outside them, and refuses an unknown split", async () => {
    const view = await board("all");
    expect(view.splits.map((s) => [s.name, s.source, s.paperCount, s.gradedPaperCount])).toEqual([
      ["all", "data", 3, 3],
      ["studio", "studio", 4, 4],
      ["lite", "data", 2, 2],
    ]);
    const studio = await board("studio");
    expect(studio.papers.map((p) => p.id)).toEqual(["extra", "p1", "p2", "p3"]);
    await expect(board("nope")).rejects.toThrow(AppError);
    await expect(board("nope")).rejects.toMatchObject({ code: "bad_request" });
  });

  it("without data splits, `all` is every graded paper; the default split is the one with the most complete runs", async () => {
    const view = await board(undefined, "full", {});
    expect(view.split).toBe("all");
    expect(view.splits.map((s) => [s.name, s.source])).toEqual([["all", "studio"]]);
    expect(view.papers.map((p) => p.id)).toEqual(["extra", "p1", "p2", "p3"]);
    // Every Alpha run misses `extra` but run 1; the others are listed unranked with their coverage.
    expect(view.agents.map((a) => [a.name, a.rank, a.nRuns, a.coverage.papers])).toEqual([
      ["Alpha", 1, 1, 4],
      ["Beta", null, 0, 3],
      ["Gamma", null, 0, 3],
      ["Delta", null, 0, 1],
    ]);
    // Data whose `all` nobody graded completely: `studio` has one complete run (Alpha's run 1),
    // `lite` (p1 alone) seven: the default is `lite`.
    const fallback = await board(undefined, "full", { all: ["p1", "zzz"], lite: ["p1"] });
    expect(fallback.split).toBe("lite");
    expect(fallback.agents.reduce((n, a) => n + a.nRuns, 0)).toBe(7);
    // Equal counts: the offered order (`all` first).
    expect((await board(undefined, "full", { all: ["p1"], lite: ["p1"] })).split).toBe("all");
    // No complete run anywhere: the first split that lists an agent, not a blank `all`.
    const none = await board(undefined, "full", { all: ["zzz"], dev: ["p3", "zzz"] });
    expect(none.split).toBe("studio");
    expect(none.agents.length).toBeGreaterThan(0);
  });

  it("gives agents with the same mean the same rank, on the split's board and on a paper's", async () => {
    // On p2 alone: Beta 0.6, Alpha mean of 0.2 0.4 0.8 0.5 = 0.475, Gamma 0.2.
    const p2 = await board("all", "full", SPLITS, "p2");
    expect(p2.paper).toEqual({ id: "p2", title: "Synthetic paper p2" });
    expect(p2.papers.map((p) => p.id)).toEqual(["p2"]);
    expect(p2.split).toBe("all");
    expect(p2.agents.map((a) => [a.name, a.rank, a.nRuns])).toEqual([
      ["Beta", 1, 1],
      ["Alpha", 2, 4],
      ["Gamma", 3, 1],
    ]);
    expect(p2.agents[1].mean).toBe(numpyMean([0.2, 0.4, 0.8, 0.5]));
    expect(p2.agents[0].judgeModels).toEqual(["judge-b"]);
    // On p1 another agent's one run scores Delta's 1.0: both rank 1, Beta (0.6) is 3rd.
    const tied = await insertSyntheticGradings(handle.db, [...run("Tie", 1, { p1: 1 })]);
    try {
      const top = (await board("all", "full", SPLITS, "p1")).agents.slice(0, 3);
      expect(top.map((a) => a.rank)).toEqual([1, 1, 3]);
      expect(
        top
          .map((a) => a.name)
          .slice(0, 2)
          .sort(),
      ).toEqual(["Delta", "Tie"]);
      expect(top[2].name).toBe("Beta");
    } finally {
      await handle.db.execute(
        sql`DELETE FROM gradings WHERE id IN (${sql.join(
          tied.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    }
    // The drill-down of a paper's board lists that paper only.
    const alpha = p2.agents.find((a) => a.name === "Alpha")!;
    const runs = await getLeaderboardAgentGradings(handle, {
      split: "all",
      paper: "p2",
      variant: "full",
      dataSplits: SPLITS,
      agentId: alpha.agentId,
      access: { all: true },
    });
    expect(runs.papers.map((p) => [p.paperId, p.runs.length])).toEqual([["p2", 4]]);
  });

  it("opens the per-paper board of any paper of the studio or its splits, refuses others", async () => {
    // A split paper nobody graded: an empty board.
    const nobody = await board("lite", "full", { ...SPLITS, lite: ["p1", "p2", "unknown-here"] }, "unknown-here");
    expect(nobody).toMatchObject({ split: "lite", paper: { id: "unknown-here", title: null }, agents: [] });
    await expect(board("all", "full", SPLITS, "no-such-paper")).rejects.toMatchObject({ code: "bad_request" });
    // The papers graded in the variant, for the board's paper picker.
    expect((await board("all")).gradedPapers.map((p) => p.id)).toEqual(["extra", "p1", "p2", "p3"]);
    expect((await board("all", "code-dev")).gradedPapers.map((p) => p.id)).toEqual(["p1", "p2", "p3"]);
  });

  it("lists the gradings behind a row only for papers the user may see", async () => {
    const view = await board("all");
    const alpha = view.agents.find((a) => a.name === "Alpha")!;
    const all = await getLeaderboardAgentGradings(handle, {
      split: "all",
      variant: "full",
      dataSplits: SPLITS,
      agentId: alpha.agentId,
      access: { all: true },
    });
    expect(all.papers.map((p) => [p.paperId, p.runs.map((r) => r.run)])).toEqual([
      ["p1", [1, 2, 3, 4]],
      ["p2", [1, 2, 3, 4]],
      ["p3", [1, 2, 3]],
    ]);
    expect(all.papers[0].runs[0].gradingId).toBe(ids[0]);
    const some = await getLeaderboardAgentGradings(handle, {
      split: "all",
      variant: "full",
      dataSplits: SPLITS,
      agentId: alpha.agentId,
      // An author of p2, a grader of p3 with one grading of it assigned.
      access: {
        all: false,
        papers: new Set(["p2"]),
        gradedPapers: new Set(["p3"]),
        gradings: new Set([ids[2]]),
        hiddenScores: new Set(),
      },
    });
    expect(some.papers.map((p) => [p.paperId, p.runs.map((r) => r.run)])).toEqual([
      ["p2", [1, 2, 3, 4]],
      ["p3", [1]],
    ]);
    expect(some.hiddenPapers).toBe(1);
    await expect(
      getLeaderboardAgentGradings(handle, {
        variant: "full",
        dataSplits: SPLITS,
        agentId: crypto.randomUUID(),
        access: { all: true },
      }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("never carries rubric text or explanations", async () => {
    const text = JSON.stringify(await board("all"));
    expect(text).not.toMatch(/requirements|explanation|judge_metadata/);
  });
});
