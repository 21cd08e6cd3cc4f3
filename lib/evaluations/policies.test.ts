import { describe, expect, it } from "vitest";
import { numpyMean, standardError } from "@/lib/grading/stats";
import { cellStateOf } from "./cell-state";
import { evaluationCellsCsv, evaluationResultsJson } from "./export";
import { applyPolicies, type EvaluationCell } from "./policies";
import { evaluationPoliciesSchema, type EvaluationPolicies } from "./schemas";
import { DEFAULT_POLICIES } from "./default-policies";

/** Two papers × three runs; paper b's run 2 reproduction failed (the judge still gave it 0.3). */
const CELLS: EvaluationCell[] = [
  { paperId: "a", run: 1, state: "succeeded", score: 0.5 },
  { paperId: "b", run: 1, state: "succeeded", score: 0.25 },
  { paperId: "a", run: 2, state: "succeeded", score: 0.75 },
  { paperId: "b", run: 2, state: "failed", score: 0.3 },
  { paperId: "a", run: 3, state: "succeeded", score: 0.125 },
  { paperId: "b", run: 3, state: "succeeded", score: 0.625 },
];
const with_ = (policy: EvaluationPolicies["reproduction_failed"]): EvaluationPolicies => ({
  ...DEFAULT_POLICIES,
  reproduction_failed: policy,
});

describe("evaluation policies", () => {
  it("a failed reproduction counted as 0 enters its run's mean as 0, and says so", () => {
    const r = applyPolicies(CELLS, with_("zero"), { runs: 3, aggregation: "mean" });
    expect(r.runScores).toEqual([numpyMean([0.5, 0.25]), numpyMean([0.75, 0]), numpyMean([0.125, 0.625])]);
    expect(r.counted.find((c) => c.paperId === "b" && c.run === 2)).toEqual({
      paperId: "b",
      run: 2,
      score: 0,
      note: "count as 0: reproduction failed",
    });
    expect(r.excluded).toEqual([]);
    expect(r.mean).toBe(numpyMean(r.runScores as number[]));
    expect(r.se).toBe(standardError(r.runScores as number[]));
    expect(r.n).toBe(3);
  });

  it("excluded, the failed cell leaves its run's mean (over the papers left) with the reason shown", () => {
    const r = applyPolicies(CELLS, with_("exclude"), { runs: 3, aggregation: "mean" });
    expect(r.runScores[1]).toBe(0.75);
    expect(r.excluded).toEqual([{ paperId: "b", run: 2, reason: "excluded: reproduction failed" }]);
    expect(r.mean).toBe(numpyMean([numpyMean([0.5, 0.25]), 0.75, numpyMean([0.125, 0.625])]));
    // The two policies give different numbers from the same cells: neither is silent.
    expect(r.mean).not.toBe(applyPolicies(CELLS, with_("zero"), { runs: 3, aggregation: "mean" }).mean);
  });

  it("retry: an ingested cell has nothing to retry and is excluded saying so; the pipeline's cell retries, then is excluded", () => {
    const ingested = applyPolicies(CELLS, with_({ retry: 2 }), { runs: 3, aggregation: "mean" });
    expect(ingested.excluded).toEqual([
      {
        paperId: "b",
        run: 2,
        reason: "excluded: reproduction failed (retry up to 2 asked; an ingested result has nothing to retry)",
      },
    ]);
    const piped = CELLS.map((c) => (c.state === "failed" ? { ...c, attempts: 2 } : c));
    const retrying = applyPolicies(piped, with_({ retry: 2 }), { runs: 3, aggregation: "mean" });
    expect(retrying.retrying).toEqual([{ paperId: "b", run: 2, attempt: 2, of: 3 }]);
    expect(retrying.excluded).toEqual([]);
    const spent = applyPolicies(
      CELLS.map((c) => (c.state === "failed" ? { ...c, attempts: 3 } : c)),
      with_({ retry: 2 }),
      { runs: 3, aggregation: "mean" },
    );
    expect(spent.excluded).toEqual([{ paperId: "b", run: 2, reason: "excluded: reproduction failed after 2 retries" }]);
  });

  it("each failure kind follows its own policy; invalid leaves counted as 0 keep the judge's score", () => {
    const cells: EvaluationCell[] = [
      { paperId: "a", run: 1, state: "timed_out", score: 0.4 },
      { paperId: "b", run: 1, state: "invalid_leaves", score: 0.2 },
      { paperId: "c", run: 1, state: "pending", score: null },
    ];
    const r = applyPolicies(
      cells,
      {
        reproduction_failed: "exclude",
        reproduction_timed_out: "zero",
        judge_invalid_leaves: "zero",
        blacklisted: "zero",
      },
      { runs: 1, aggregation: "mean" },
    );
    expect(r.counted.map((c) => [c.paperId, c.score])).toEqual([
      ["a", 0],
      ["b", 0.2],
    ]);
    expect(r.excluded).toEqual([{ paperId: "c", run: 1, reason: "excluded: not graded yet" }]);
    expect(r.runScores).toEqual([0.1]);
    expect(r.se).toBeNull();
  });

  it("best of N: each paper's best counted run, averaged over papers", () => {
    const r = applyPolicies(CELLS, with_("zero"), { runs: 3, aggregation: "best_of_n" });
    expect(r.bestPerPaper).toEqual({ a: 0.75, b: 0.625 });
    expect(r.mean).toBe(numpyMean([0.75, 0.625]));
  });

  it("policies are checked: an unknown policy or a retry of 0 is refused", () => {
    expect(evaluationPoliciesSchema.safeParse({ ...DEFAULT_POLICIES, reproduction_failed: "drop" }).success).toBe(
      false,
    );
    expect(
      evaluationPoliciesSchema.safeParse({ ...DEFAULT_POLICIES, judge_invalid_leaves: { retry: 0 } }).success,
    ).toBe(false);
  });
});

describe("cell state", () => {
  const base = { imported: null, jobStatus: null, hasGrading: true, invalidLeaves: 0 };
  const imported = (reproduction: Record<string, unknown> | null, judgeOutputMissing = false) => ({
    runId: "r",
    runGroupId: "g",
    reproduction,
    judgeOutputMissing,
    codeOnly: false,
    resourcesProvided: false,
    score: null,
  });
  it("a graded cell is judged however its reproduction ended; only a cell with nothing judged reads the reproduction's failure", () => {
    expect(cellStateOf({ ...base, imported: imported({ timedout: true, repro_script_exists: true }) })).toBe(
      "succeeded",
    );
    expect(
      cellStateOf({ ...base, imported: imported({ timedout: false, repro_script_exists: true, exit_code: 1 }) }),
    ).toBe("succeeded");
    expect(cellStateOf({ ...base, jobStatus: "failed" })).toBe("succeeded");
    expect(cellStateOf({ ...base, jobStatus: "running" })).toBe("pending");
    const unjudged = { ...base, hasGrading: false };
    expect(cellStateOf({ ...unjudged, imported: imported({ timedout: true, repro_script_exists: true }) })).toBe(
      "timed_out",
    );
    expect(cellStateOf({ ...unjudged, imported: imported({ timedout: false, repro_script_exists: false }) })).toBe(
      "failed",
    );
    expect(
      cellStateOf({ ...unjudged, imported: imported({ timedout: false, repro_script_exists: true, exit_code: 1 }) }),
    ).toBe("failed");
    expect(cellStateOf({ ...unjudged, jobStatus: "timed_out" })).toBe("timed_out");
    expect(cellStateOf({ ...unjudged, jobStatus: "cancelled" })).toBe("failed");
    expect(cellStateOf({ ...base, hasGrading: false, imported: imported(null, true) })).toBe("failed");
    expect(cellStateOf({ ...base, hasGrading: false })).toBe("pending");
    expect(cellStateOf({ ...base, invalidLeaves: 2 })).toBe("invalid_leaves");
    expect(cellStateOf({ ...base, imported: imported({ timedout: false, repro_script_exists: true }) })).toBe(
      "succeeded",
    );
  });
});

describe("evaluation export", () => {
  it("JSON per paper and overall, CSV one row per cell with what counted and why", () => {
    const r = applyPolicies(CELLS, with_("exclude"), { runs: 3, aggregation: "mean" });
    const json = evaluationResultsJson(
      {
        id: "e",
        name: "n",
        agent: "A",
        split: "custom",
        variant: "full",
        runs: 3,
        aggregation: "mean",
        resourcesProvided: false,
        isHuman: false,
        setup: {},
      },
      { reproduction_failed: "exclude" },
      ["a", "b"],
      r,
    );
    expect(json.per_paper.b.scores).toEqual([0.25, null, 0.625]);
    expect(json.per_paper.a.mean).toBe(numpyMean([0.5, 0.75, 0.125]));
    expect(json.overall.run_scores).toEqual(r.runScores);
    expect(json.overall.std_err).toBe(r.se);
    expect(json.excluded).toEqual([{ paper_id: "b", run: 2, reason: "excluded: reproduction failed" }]);
    const csv = evaluationCellsCsv(
      CELLS.map((c) => ({
        ...c,
        submissionId: null,
        gradingId: null,
        invalidLeaves: 0,
        leaves: 3,
        runGroupId: `g${c.run}`,
      })),
      r,
    ).split("\r\n");
    expect(csv[0]).toBe(
      "paper_id,run,run_group_id,state,score,counted_score,excluded_reason,invalid_leaves,leaves,submission_id,grading_id",
    );
    expect(csv[5]).toBe("b,2,g2,failed,0.3,,excluded: reproduction failed,0,3,,");
    expect(csv).toHaveLength(8);
  });
});
