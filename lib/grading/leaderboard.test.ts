import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  ALL_PAPERS,
  PAPERBENCH_DATA_DIR,
  readSplit,
  requirePaperBenchData,
  skipWithoutData,
} from "@/lib/rubric/paperbench-data.testutil";
import { computeLeaderboard, rankEntries, type LeaderboardRow } from "./leaderboard";
import { readSplits } from "@/server/papers/data-splits";
import { parseSplitText } from "./splits";
import { numpyMean, numpyStd, numpySum, standardError } from "./stats";

const split = { name: "mini", paperIds: ["p1", "p2", "p3"] };

function runRows(
  agentId: string,
  runId: string,
  scores: Record<string, number>,
  extra: Partial<LeaderboardRow> = {},
): LeaderboardRow[] {
  return Object.entries(scores).map(([paperId, rootScore]) => ({ agentId, runId, paperId, rootScore, ...extra }));
}

describe("computeLeaderboard", () => {
  const rows: LeaderboardRow[] = [
    // Agent A: three complete runs with means 0.2, 0.4, 0.9 and one run missing p3.
    ...runRows("A", "r1", { p1: 0.1, p2: 0.2, p3: 0.3 }, { judgeModel: "o3-mini" }),
    ...runRows("A", "r2", { p1: 0.4, p2: 0.4, p3: 0.4 }, { judgeModel: "o3-mini", humanReviewed: true }),
    ...runRows("A", "r3", { p1: 0.9, p2: 0.8, p3: 1.0 }, { judgeModel: "gpt-4o" }),
    ...runRows("A", "r4", { p1: 0.5, p2: 0.5 }),
    // Agent B: a single complete run, and a paper outside the split (ignored).
    ...runRows("B", "s1", { p1: 0.6, p2: 0.6, p3: 0.9, other: 0 }),
    // Agent C: no complete run.
    ...runRows("C", "t1", { p1: 1 }),
  ];
  const board = computeLeaderboard(rows, split);

  it("averages each run over the split, then the runs, with the standard error (ddof 1) over complete runs", () => {
    const a = board.agents.find((e) => e.agentId === "A")!;
    expect(a.runs.map((r) => r.runId)).toEqual(["r1", "r2", "r3"]);
    const runMeans = [(0.1 + 0.2 + 0.3) / 3, (0.4 + 0.4 + 0.4) / 3, (0.9 + 0.8 + 1.0) / 3];
    a.runs.forEach((r, i) => expect(r.score).toBeCloseTo(runMeans[i], 15));
    // mean 0.5; deviations -0.3, -0.1, 0.4; sample variance (0.09 + 0.01 + 0.16) / (3 - 1) = 0.13.
    expect(a.mean).toBeCloseTo(0.5, 15);
    expect(a.stdErr).toBeCloseTo(Math.sqrt(0.13) / Math.sqrt(3), 15);
    expect(a.stdErr).not.toBeCloseTo(Math.sqrt(0.26 / 3) / Math.sqrt(3), 6); // not ddof 0
    expect(a.nRuns).toBe(3);
    expect(a.judgeModels).toEqual(["gpt-4o", "o3-mini"]);
    expect(a.humanReviewedPapers).toBe(3);
  });

  it("leaves out runs that miss a paper of the split, saying which", () => {
    const a = board.agents.find((e) => e.agentId === "A")!;
    expect(a.excludedRuns).toEqual([
      {
        runId: "r4",
        reason: "incomplete",
        missingPapers: ["p3"],
        duplicatePapers: [],
        pendingPapers: [],
        message: "missing 1 of 3 papers: p3",
      },
    ]);
    const c = board.agents.find((e) => e.agentId === "C")!;
    expect(c).toMatchObject({ mean: null, stdErr: null, nRuns: 0, runs: [] });
    expect(c.excludedRuns[0].missingPapers).toEqual(["p2", "p3"]);
  });

  it("gives a single run no standard error", () => {
    const b = board.agents.find((e) => e.agentId === "B")!;
    expect(b.mean).toBeCloseTo(0.7, 15);
    expect(b.stdErr).toBeNull();
    expect(b.nRuns).toBe(1);
  });

  it("ranks by mean, agents without a complete run last", () => {
    expect(board.agents.map((e) => e.agentId)).toEqual(["B", "A", "C"]);
    expect(board.split).toBe("mini");
    expect(board.paperIds).toEqual(["p1", "p2", "p3"]);
    expect(board.agents.map((e) => e.rank)).toEqual([1, 2, null]);
  });

  it("gives agents with the same mean the same rank, and the next mean its position (1, 1, 3)", () => {
    const tied = computeLeaderboard(
      [
        ...runRows("Z", "r1", { p1: 0.5, p2: 0.5, p3: 0.5 }),
        ...runRows("Y", "r1", { p1: 0.5, p2: 0.5, p3: 0.5 }),
        ...runRows("X", "r1", { p1: 0.2, p2: 0.2, p3: 0.2 }),
        ...runRows("W", "r1", { p1: 0.2, p2: 0.2, p3: 0.2 }),
        ...runRows("V", "r1", { p1: 0.9 }),
      ],
      split,
    );
    expect(tied.agents.map((e) => [e.agentId, e.rank])).toEqual([
      ["Y", 1],
      ["Z", 1],
      ["W", 3],
      ["X", 3],
      ["V", null],
    ]);
  });

  it("ties means that differ only by floating-point rounding (runs added in another order), not means that differ", () => {
    const oneRun = (agent: string, run: string, score: number) =>
      runRows(agent, run, { p1: score, p2: score, p3: score });
    const tied = computeLeaderboard(
      [
        ...[0.1, 0.2, 0.3].flatMap((s, i) => oneRun("A", `r${i + 1}`, s)),
        ...[0.3, 0.2, 0.1].flatMap((s, i) => oneRun("B", `r${i + 1}`, s)),
        ...[0.2, 0.2, 0.1999].flatMap((s, i) => oneRun("C", `r${i + 1}`, s)),
      ],
      split,
    );
    const [a, b] = ["A", "B"].map((id) => tied.agents.find((e) => e.agentId === id)!);
    expect(a.mean).not.toBe(b.mean); // apart in the last bit only
    expect(tied.agents.map((e) => [e.agentId, e.rank])).toEqual([
      ["A", 1],
      ["B", 1],
      ["C", 3],
    ]);
  });

  it("lists agents without a complete run after the ranked ones, by papers covered, with their mean over those papers", () => {
    const c = board.agents.find((e) => e.agentId === "C")!;
    expect(c.coverage).toEqual({ papers: 1, mean: 1 });
    const a = board.agents.find((e) => e.agentId === "A")!;
    // Every paper is covered; the mean of the per-paper means (over all four runs on p1, p2).
    expect(a.coverage.papers).toBe(3);
    expect(a.coverage.mean).toBe(numpyMean(a.perPaper.map((p) => p.mean!)));
    const partial = computeLeaderboard(
      [
        ...runRows("Full", "r1", { p1: 0.1, p2: 0.1, p3: 0.1 }),
        // Two papers, spread over two incomplete runs: they cover p1 and p2.
        ...runRows("Two", "r1", { p1: 0.2 }),
        ...runRows("Two", "r2", { p2: 0.4 }),
        ...runRows("OneHigh", "r1", { p3: 0.9 }, { judgeModel: "o3-mini" }),
        ...runRows("OneLow", "r1", { p1: 0.8 }),
      ],
      split,
    );
    expect(partial.agents.map((e) => [e.agentId, e.rank, e.coverage.papers])).toEqual([
      ["Full", 1, 3],
      ["Two", null, 2],
      ["OneHigh", null, 1],
      ["OneLow", null, 1],
    ]);
    expect(partial.agents[1].coverage.mean).toBe(numpyMean([0.2, 0.4]));
    // Without a complete run, the judges of the gradings it has.
    expect(partial.agents[2].judgeModels).toEqual(["o3-mini"]);
    // A one-paper split is the per-paper board: every run that graded the paper counts.
    const paper = computeLeaderboard(
      [
        ...runRows("Two", "r1", { p1: 0.2 }),
        ...runRows("OneLow", "r1", { p1: 0.8 }),
        ...runRows("Full", "r1", { p1: 0.8, p2: 0 }),
      ],
      { name: "p1", paperIds: ["p1"] },
    );
    expect(paper.agents.map((e) => [e.agentId, e.rank, e.mean])).toEqual([
      ["Full", 1, 0.8],
      ["OneLow", 1, 0.8],
      ["Two", 3, 0.2],
    ]);
  });

  it("breaks down per paper over every run that graded it (mean ± SE, runs)", () => {
    const a = board.agents.find((e) => e.agentId === "A")!;
    const p1 = a.perPaper.find((p) => p.paperId === "p1")!;
    // r1 0.1, r2 0.4, r3 0.9, r4 0.5: mean 0.475, sample variance Σ(x - 0.475)² / 3.
    expect(p1.nRuns).toBe(4);
    expect(p1.mean).toBeCloseTo(0.475, 15);
    const variance = ((0.1 - 0.475) ** 2 + (0.4 - 0.475) ** 2 + (0.9 - 0.475) ** 2 + (0.5 - 0.475) ** 2) / 3;
    expect(p1.stdErr).toBeCloseTo(Math.sqrt(variance) / 2, 15);
    expect(p1.scores.map((s) => s.runId)).toEqual(["r1", "r2", "r3", "r4"]);
    const p3 = a.perPaper.find((p) => p.paperId === "p3")!;
    expect(p3.nRuns).toBe(3);
    const c = board.agents.find((e) => e.agentId === "C")!;
    expect(c.perPaper.map((p) => [p.paperId, p.nRuns, p.mean, p.stdErr])).toEqual([
      ["p1", 1, 1, null],
      ["p2", 0, null, null],
      ["p3", 0, null, null],
    ]);
  });

  it("filters by variant and refuses runs with several gradings of one paper", () => {
    const mixed: LeaderboardRow[] = [
      ...runRows("D", "u1", { p1: 1, p2: 1, p3: 1 }, { variant: "code-dev" }),
      ...runRows("D", "u1", { p1: 0, p2: 0, p3: 0 }, { variant: "full" }),
      ...runRows("D", "u2", { p1: 0.5, p2: 0.5, p3: 0.5 }, { variant: "full" }),
    ];
    const full = computeLeaderboard(mixed, split, { variant: "full" }).agents[0];
    expect(full.mean).toBeCloseTo(0.25, 15);
    expect(full.nRuns).toBe(2);
    const both = computeLeaderboard(mixed, split).agents[0];
    expect(both.excludedRuns.map((r) => [r.runId, r.reason, r.duplicatePapers])).toEqual([
      ["u1", "duplicate_papers", ["p1", "p2", "p3"]],
    ]);
    expect(both.nRuns).toBe(1);
  });

  it("publishes no score of a grading under an open blind review: its run waits, the mean uses the other runs", () => {
    const pending: LeaderboardRow[] = [
      ...runRows("E", "v1", { p1: 0.2, p2: 0.2, p3: 0.2 }),
      ...runRows("E", "v2", { p1: 0.6, p2: 0.6 }),
      { agentId: "E", runId: "v2", paperId: "p3", rootScore: 0.9, pendingReview: true },
      // F's only run is pending: its mean waits.
      ...runRows("F", "w1", { p1: 1, p2: 1 }),
      { agentId: "F", runId: "w1", paperId: "p3", rootScore: 0.37, pendingReview: true },
    ];
    const { agents } = computeLeaderboard(pending, split);
    const e = agents.find((a) => a.agentId === "E")!;
    expect(e.runs.map((r) => r.runId)).toEqual(["v1"]);
    expect(e.mean).toBeCloseTo(0.2, 15);
    expect(e.excludedRuns).toEqual([
      {
        runId: "v2",
        reason: "pending_review",
        missingPapers: [],
        duplicatePapers: [],
        pendingPapers: ["p3"],
        message: "pending review: a blind review is open on p3",
      },
    ]);
    const p3 = e.perPaper.find((p) => p.paperId === "p3")!;
    expect(p3).toMatchObject({ nRuns: 1, mean: 0.2, pendingRuns: 1, scores: [{ runId: "v1", score: 0.2 }] });
    const f = agents.find((a) => a.agentId === "F")!;
    expect(f).toMatchObject({ mean: null, nRuns: 0, runs: [], rank: null });
    // Its coverage counts only the papers with a published score.
    expect(f.coverage).toEqual({ papers: 2, mean: 1 });
    expect(f.perPaper.find((p) => p.paperId === "p3")).toMatchObject({
      mean: null,
      nRuns: 0,
      pendingRuns: 1,
      scores: [],
    });
    // The pending score appears nowhere in the board.
    expect(JSON.stringify(agents)).not.toContain("0.37");
    expect(JSON.stringify(agents)).not.toContain("0.9");
  });
});

describe("numpy-order statistics", () => {
  it("are the textbook values on small inputs", () => {
    expect(numpySum([1, 2, 3])).toBe(6);
    expect(numpyMean([0.2, 0.4, 0.9])).toBeCloseTo(0.5, 15);
    expect(numpyStd([2, 4, 4, 4, 5, 5, 7, 9])).toBe(2);
    expect(standardError([1])).toBeNull();
    expect(standardError([])).toBeNull();
    expect(standardError([1, 3])).toBe(Math.sqrt(2) / Math.sqrt(2));
  });

  // Off CI the check needs python3 with numpy and skips without; in CI (.ci/run installs numpy) it must run.
  const hasNumpy = spawnSync("python3", ["-c", "import numpy"], { stdio: "ignore" }).status === 0;
  it.skipIf(!hasNumpy && process.env.CI !== "true")(
    "match numpy's np.mean and np.std(ddof=1) to the last bit (pairwise summation)",
    () => {
      if (!hasNumpy)
        throw new Error(
          "python3 cannot import numpy: install it (pip install numpy, or apt-get install python3-numpy)",
        );
      // Sizes across numpy's blocks: < 8, the unrolled 8..128 loop, and the recursive split above 128.
      const arrays: number[][] = [];
      let seed = 12345;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (const n of [1, 2, 3, 7, 8, 9, 15, 16, 17, 100, 128, 129, 200, 257, 1000, 4099]) {
        arrays.push(Array.from({ length: n }, () => random() * (random() < 0.5 ? 1 : 1e-3)));
      }
      const script =
        "import json, sys, numpy as np\n" +
        "data = json.load(sys.stdin)\n" +
        "out = [[repr(float(np.mean(a))), repr(float(np.std(a, ddof=1) / np.sqrt(len(a)))) if len(a) > 1 else None] for a in data]\n" +
        "print(json.dumps(out))";
      const result = spawnSync("python3", ["-c", script], { input: JSON.stringify(arrays), encoding: "utf8" });
      expect(result.status).toBe(0);
      const expected = JSON.parse(result.stdout) as [string, string | null][];
      arrays.forEach((a, i) => {
        expect(numpyMean(a)).toBe(Number(expected[i][0]));
        const se = standardError(a);
        expect(se === null ? null : se).toBe(expected[i][1] === null ? null : Number(expected[i][1]));
      });
    },
  );
});

describe("splits", () => {
  it("parses one id a line, ignoring blanks, comments and repeats", () => {
    expect(parseSplitText("a\n\n# comment\nb  # trailing\r\na\n")).toEqual(["a", "b"]);
  });

  it.skipIf(skipWithoutData)("reads every split of the data folder from its files", () => {
    requirePaperBenchData();
    const splits = readSplits(PAPERBENCH_DATA_DIR);
    expect(Object.keys(splits)).toEqual(["all", "debug", "dev", "human", "lite", "testing"]);
    for (const name of Object.keys(splits)) expect(splits[name]).toEqual(readSplit(name));
    expect([...splits.all].sort()).toEqual([...ALL_PAPERS]);
    expect(readSplits("/nonexistent-folder")).toEqual({});
  });
});

describe("rankEntries with a baseline", () => {
  const entry = (agentId: string, mean: number | null) => ({
    agentId,
    mean,
    rank: null as number | null,
    coverage: { papers: mean === null ? 0 : 1, mean },
  });
  it("sorts a human baseline in by its mean without a rank, and the agents' ranks do not move", () => {
    const ranked = rankEntries(
      [entry("a", 0.2), entry("human", 0.4), entry("b", 0.3), entry("c", 0.3), entry("d", null)],
      (e) => e.agentId === "human",
    );
    expect(ranked.map((e) => [e.agentId, e.rank])).toEqual([
      ["human", null],
      ["b", 1],
      ["c", 1],
      ["a", 3],
      ["d", null],
    ]);
  });
});
