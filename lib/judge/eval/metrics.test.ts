import { describe, expect, it } from "vitest";
import { skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import { cloneGradedTree, preorder, recomputeScores } from "@/lib/grading/graded-tree";
import { leaf, node, parseTree, readGradingText, referenceMetrics } from "@/lib/grading/grading-data.testutil";
import {
  computeMetrics,
  evaluateGradedFiles,
  evaluateJudge,
  formatJudgeEvalSummary,
  judgeEvalResultsJson,
  type MetricSummary,
} from "./metrics";
import { GradingInputError } from "@/lib/grading/recompute";
import { serializeJudgeOutput } from "@/lib/grading/serialize";
import type { GradedNode } from "@/lib/grading/types";

function expectMetrics(actual: MetricSummary, expected: MetricSummary): void {
  expect(actual.num_samples).toBe(expected.num_samples);
  expect(actual.num_positives).toBe(expected.num_positives);
  expect(actual.num_negatives).toBe(expected.num_negatives);
  for (const key of ["accuracy", "precision", "recall", "f1"] as const)
    expect(actual[key]).toBeCloseTo(expected[key], 12);
}

/**
 * The (human, judge) samples of a pair, gathered by a plain recursion: judge subtrees under an
 * invalid node skipped, leaves matched by id to the first human node in pre-order.
 */
function referenceSamples(human: GradedNode, judge: GradedNode): { category: string | null; t: number; p: number }[] {
  const humanById = new Map<string, GradedNode>();
  const index = (n: GradedNode) => {
    if (!humanById.has(n.id)) humanById.set(n.id, n);
    n.sub_tasks.forEach(index);
  };
  index(human);
  const out: { category: string | null; t: number; p: number }[] = [];
  const walk = (n: GradedNode) => {
    if (!n.valid_score) return;
    if (n.sub_tasks.length === 0) {
      const h = humanById.get(n.id);
      if (h && h.valid_score) out.push({ category: n.task_category, t: h.score, p: n.score });
      return;
    }
    n.sub_tasks.forEach(walk);
  };
  walk(judge);
  return out;
}

/** A judge's grading made from a human's: every `flip`-th leaf flipped, every `invalid`-th leaf invalid (score 0). */
function fakeJudge(
  human: GradedNode,
  { flip, invalid, invalidInternal }: { flip: number; invalid: number; invalidInternal?: number },
): GradedNode {
  const judge = cloneGradedTree(human);
  let k = 0;
  let internal = 0;
  for (const n of preorder(judge)) {
    if (n.sub_tasks.length > 0) {
      if (internal++ === invalidInternal) n.valid_score = false;
      continue;
    }
    k++;
    if (k % invalid === 0) {
      n.valid_score = false;
      n.score = 0;
    } else if (k % flip === 0) n.score = 1 - n.score;
  }
  return recomputeScores(judge);
}

// ---------------------------------------------------------------------------------------------

describe("computeMetrics, against values worked out by hand", () => {
  it("computes accuracy and macro precision, recall and F1 over classes 0 and 1", () => {
    // class 1: TP 2, FP 1, FN 1 → P 2/3, R 2/3, F1 2/3; class 0: TP 1, FP 1, FN 1 → 1/2 each.
    const m = computeMetrics([1, 1, 1, 0, 0], [1, 0, 1, 1, 0]);
    expect(m.accuracy).toBe(3 / 5);
    expect(m.precision).toBeCloseTo((2 / 3 + 1 / 2) / 2, 15);
    expect(m.recall).toBeCloseTo((2 / 3 + 1 / 2) / 2, 15);
    expect(m.f1).toBeCloseTo((2 / 3 + 1 / 2) / 2, 15);
    expect([m.num_samples, m.num_positives, m.num_negatives]).toEqual([5, 3, 2]);
  });

  it("gives 0 to a class nobody predicted (zero_division=0), which still counts in the average", () => {
    // The judge says 1 everywhere. Class 0: no predictions → P 0, R 0/2 = 0, F1 0.
    // Class 1: TP 2, FP 2, FN 0 → P 1/2, R 1, F1 2·(1/2)·1/(3/2) = 2/3.
    const m = computeMetrics([1, 0, 0, 1], [1, 1, 1, 1]);
    expect(m.accuracy).toBe(1 / 2);
    expect(m.precision).toBeCloseTo(1 / 4, 15);
    expect(m.recall).toBeCloseTo(1 / 2, 15);
    expect(m.f1).toBeCloseTo(1 / 3, 15);
  });

  it("averages over the classes present only (sklearn's default labels), and is all zeros without samples", () => {
    // Only class 1 occurs: P = R = F1 = 1 (not 1/2).
    expect(computeMetrics([1, 1], [1, 1])).toEqual({
      accuracy: 1,
      precision: 1,
      recall: 1,
      f1: 1,
      num_samples: 2,
      num_positives: 2,
      num_negatives: 0,
    });
    // Only class 0 in the truth, the judge says 1 once: class 1 has P 0, R 0 (no true 1s).
    const m = computeMetrics([0, 0, 0], [0, 1, 0]);
    expect(m.precision).toBeCloseTo((1 + 0) / 2, 15);
    expect(m.recall).toBeCloseTo((2 / 3 + 0) / 2, 15);
    expect(m.f1).toBeCloseTo((0.8 + 0) / 2, 15);
    expect(computeMetrics([], [])).toEqual({
      accuracy: 0,
      precision: 0,
      recall: 0,
      f1: 0,
      num_samples: 0,
      num_positives: 0,
      num_negatives: 0,
    });
  });

  it("refuses scores other than 0 and 1", () => {
    expect(() => computeMetrics([0.5], [1])).toThrow(GradingInputError);
  });
});

describe("evaluateJudge on hand-made trees", () => {
  // root: A (w3) [a1 w1, a2 w1, a3 w2], B (w1) [b1 w1 (Code Execution), b2 w1 (Result Analysis)], c (w0)
  const human = recomputeScores(
    node("root", 1, [
      node("A", 3, [leaf("a1", 1, 1), leaf("a2", 1, 0), leaf("a3", 2, 1)]),
      node("B", 1, [leaf("b1", 1, 1, "Code Execution"), leaf("b2", 1, 0, "Result Analysis")]),
      leaf("c", 0, 1),
    ]),
  );

  it("leaves out invalid judge leaves, subtrees under an invalid judge node, invalid human leaves and unmatched ids", () => {
    const judge = cloneGradedTree(human);
    judge.sub_tasks[0].sub_tasks[0].valid_score = false; // a1: invalid verdict
    judge.sub_tasks[1].valid_score = false; // B: the whole subtree
    judge.sub_tasks[0].sub_tasks[2].id = "a3-renamed"; // unmatched
    const humanWithInvalid = cloneGradedTree(human);
    humanWithInvalid.sub_tasks[2].valid_score = false; // c: no ground truth
    const report = evaluateJudge([{ label: "p", human: humanWithInvalid, judge: recomputeScores(judge) }]);
    expect(report.samples.map((s) => s.id)).toEqual(["a2"]);
    expect(report.excluded.map((e) => [e.id, e.reason])).toEqual([
      ["a1", "invalid_judge"],
      ["a3-renamed", "unmatched"],
      ["b1", "invalid_judge"],
      ["b2", "invalid_judge"],
      ["c", "invalid_human"],
    ]);
  });

  it("builds the confusion matrix and ranks disagreements by effective share", () => {
    const judge = cloneGradedTree(human);
    judge.sub_tasks[0].sub_tasks[1].score = 1; // a2: human 0, judge 1 (share 3/4 · 1/4)
    judge.sub_tasks[0].sub_tasks[2].score = 0; // a3: human 1, judge 0 (share 3/4 · 2/4)
    judge.sub_tasks[1].sub_tasks[1].score = 1; // b2: human 0, judge 1 (share 1/4 · 1/2)
    judge.sub_tasks[2].score = 0; // c: human 1, judge 0 (share 0)
    const report = evaluateJudge([{ human, judge: recomputeScores(judge) }]);
    // truth:  a1 1, a2 0, a3 1, b1 1, b2 0, c 1 ; judge: 1, 1, 0, 1, 1, 0
    expect(report.confusion).toEqual({ tn: 0, fp: 2, fn: 2, tp: 2 });
    expect(report.disagreements.map((d) => [d.id, d.share])).toEqual([
      ["a3", (3 / 4) * (2 / 4)],
      ["a2", (3 / 4) * (1 / 4)],
      ["b2", (1 / 4) * (1 / 2)],
      ["c", 0],
    ]);
    expect(report.disagreements[0]).toMatchObject({
      human: 1,
      judge: 0,
      path: "sub_tasks[0].sub_tasks[2]",
      category: "Code Development",
    });
    expectMetrics(report.overall, referenceMetrics([1, 0, 1, 1, 0, 1], [1, 1, 0, 1, 1, 0]));
    expect(Object.keys(report.stratified)).toEqual(["Code Development", "Code Execution", "Result Analysis"]);
    expect(report.stratifiedConfusion["Result Analysis"]).toEqual({ tn: 0, fp: 1, fn: 0, tp: 0 });
    expectMetrics(report.stratified["Code Development"], referenceMetrics([1, 0, 1, 1], [1, 1, 0, 0]));
  });

  it("pools samples across pairs per category (not an average of per-pair metrics)", () => {
    const j1 = cloneGradedTree(human);
    j1.sub_tasks[0].sub_tasks[0].score = 0; // a1 wrong
    const j2 = cloneGradedTree(human);
    j2.sub_tasks[0].sub_tasks[1].score = 1; // a2 wrong
    j2.sub_tasks[1].sub_tasks[0].score = 0; // b1 wrong
    const report = evaluateJudge([
      { label: "one", human, judge: recomputeScores(j1) },
      { label: "two", human, judge: recomputeScores(j2) },
    ]);
    // Code Development samples (a1, a2, a3, c), pooled: truth 1,0,1,1 | 1,0,1,1 ; judge 0,0,1,1 | 1,1,1,1
    expectMetrics(
      report.stratified["Code Development"],
      referenceMetrics([1, 0, 1, 1, 1, 0, 1, 1], [0, 0, 1, 1, 1, 1, 1, 1]),
    );
    expectMetrics(report.stratified["Code Execution"], referenceMetrics([1, 1], [1, 0]));
    expect(report.overall.num_samples).toBe(12);
    expect(report.perPair.map((p) => p.label)).toEqual(["one", "two"]);
    expectMetrics(report.perPair[1].overall, referenceMetrics([1, 0, 1, 1, 0, 1], [1, 1, 1, 0, 0, 1]));
    const averaged = (report.perPair[0].overall.f1 + report.perPair[1].overall.f1) / 2;
    expect(report.overall.f1).not.toBeCloseTo(averaged, 6);
  });

  it("refuses a compared score other than 0 or 1, naming where", () => {
    const judge = cloneGradedTree(human);
    judge.sub_tasks[0].sub_tasks[0].score = 0.5;
    expect(() => evaluateJudge([{ label: "p", human, judge }])).toThrow(
      "p: judge score at sub_tasks[0].sub_tasks[0]: JudgeEval needs scores of 0 or 1, got 0.5",
    );
  });

  it("writes PaperBench's results.json shape", () => {
    const judge = recomputeScores(cloneGradedTree(human));
    const report = evaluateJudge([{ human, judge }]);
    const text = judgeEvalResultsJson(report, {
      judge_type: "simple",
      judge_kwargs: { model: "o3-mini" },
      examples: [{ example_id: "ex-1", paper_id: "demo", judge, token_usage: { "o3-mini": { in: 10, out: 2 } } }],
      timestamp: "20250101_120000",
    });
    const json = JSON.parse(text);
    expect(Object.keys(json)).toEqual([
      "judge_type",
      "code_only",
      "judge_kwargs",
      "results",
      "aggregate_metrics",
      "aggregate_token_usage",
      "timestamp",
    ]);
    expect(Object.keys(json.results[0])).toEqual([
      "example_id",
      "paper_id",
      "judge_type",
      "judge_kwargs",
      "metrics",
      "token_usage",
      "graded_task_tree",
    ]);
    expect(Object.keys(json.aggregate_metrics.overall)).toEqual([
      "accuracy",
      "precision",
      "recall",
      "f1",
      "num_positives",
      "num_negatives",
      "num_samples",
    ]);
    expect(Object.keys(json.aggregate_metrics.stratified)).toEqual([
      "Code Development",
      "Code Execution",
      "Result Analysis",
    ]);
    expect(json.results[0].graded_task_tree.sub_tasks[0].sub_tasks[0].score).toBe(1);
    expect(text).toContain('\n  "judge_type": "simple",');
    expect(text).toContain('"accuracy": 1.0,');
  });
});

describe.skipIf(skipWithoutData)("evaluateJudge on the shipped human gradings", () => {
  const papers = ["all-in-one", "pinn", "stay-on-topic-with-classifier-free-guidance"];
  const humans = papers.map((p) => parseTree(readGradingText(p)));
  const judges = humans.map((h, i) => fakeJudge(h, { flip: 5 + i, invalid: 13, invalidInternal: 3 }));

  it("matches the reference overall and per category for each paper", () => {
    for (let i = 0; i < papers.length; i++) {
      const report = evaluateJudge([{ label: papers[i], human: humans[i], judge: judges[i] }]);
      const samples = referenceSamples(humans[i], judges[i]);
      expect(report.samples.length).toBe(samples.length);
      expectMetrics(
        report.overall,
        referenceMetrics(
          samples.map((s) => s.t),
          samples.map((s) => s.p),
        ),
      );
      for (const category of ["Code Development", "Code Execution", "Result Analysis"]) {
        const mine = samples.filter((s) => s.category === category);
        expectMetrics(
          report.stratified[category],
          referenceMetrics(
            mine.map((s) => s.t),
            mine.map((s) => s.p),
          ),
        );
      }
      const invalid = report.excluded.filter((e) => e.reason === "invalid_judge").length;
      expect(invalid).toBeGreaterThan(0);
      expect(report.samples.length + invalid).toBe(preorder(judges[i]).filter((n) => n.sub_tasks.length === 0).length);
    }
  });

  it("pools the three papers per category", () => {
    const report = evaluateJudge(papers.map((p, i) => ({ label: p, human: humans[i], judge: judges[i] })));
    const all = papers.flatMap((_, i) => referenceSamples(humans[i], judges[i]));
    expectMetrics(
      report.overall,
      referenceMetrics(
        all.map((s) => s.t),
        all.map((s) => s.p),
      ),
    );
    for (const category of ["Code Development", "Code Execution", "Result Analysis"]) {
      const mine = all.filter((s) => s.category === category);
      expectMetrics(
        report.stratified[category],
        referenceMetrics(
          mine.map((s) => s.t),
          mine.map((s) => s.p),
        ),
      );
    }
    // Disagreements: every flipped, valid leaf; largest share first.
    expect(report.disagreements.length).toBe(all.filter((s) => s.t !== s.p).length);
    for (let k = 1; k < report.disagreements.length; k++) {
      expect(report.disagreements[k - 1].share).toBeGreaterThanOrEqual(report.disagreements[k].share);
    }
  });

  it("agrees perfectly with itself", () => {
    const report = evaluateJudge([{ human: humans[0], judge: humans[0] }]);
    expect(report.overall).toMatchObject({ accuracy: 1, precision: 1, recall: 1, f1: 1, num_samples: 174 });
    expect(report.disagreements).toEqual([]);
  });

  it("evaluates files, bare or wrapped, and refuses malformed ones with the file and path", () => {
    const humanText = readGradingText("pinn");
    const judgeText = serializeJudgeOutput(judges[1], { judgeType: "simple", gradedAt: "t" });
    const result = evaluateGradedFiles({ name: "h.json", text: humanText }, { name: "j.json", text: judgeText });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.report.overall).toEqual(evaluateJudge([{ human: humans[1], judge: judges[1] }]).overall);
    expect(result.notes[0]).toMatch(/^\d+ invalid leaf\/leaves of j.json left out$/);
    const broken = JSON.parse(judgeText);
    broken.graded_task_tree.sub_tasks[3].score = "high";
    const refused = evaluateGradedFiles(
      { name: "h.json", text: humanText },
      { name: "j.json", text: JSON.stringify(broken) },
    );
    expect(refused).toEqual({
      ok: false,
      errors: ["j.json: graded_task_tree.sub_tasks[3].score: must be a number, got a string"],
    });
    expect(formatJudgeEvalSummary(result.report)).toMatch(/^\{\n {2}"overall": \{\n {4}"accuracy": 0\.\d+,\n/);
  });
});
