import { describe, expect, it } from "vitest";
import { computeMetrics } from "@/lib/judge/eval/metrics";
import { aggregateLab, perPaperMean, type LabRunOutcome, type LabSample } from "./metrics";

const sample = (human: 0 | 1, judge: 0 | 1, category: string | null): LabSample => ({ human, judge, category });

function run(over: Partial<LabRunOutcome>): LabRunOutcome {
  return {
    groupKey: "a",
    paperId: "p1",
    finished: true,
    succeeded: true,
    costUsd: 0,
    durationMs: 1000,
    samples: [],
    ...over,
  };
}

describe("perPaperMean", () => {
  it("averages each paper's runs first, then the papers: a paper with many runs counts once", () => {
    // p1: (1 + 3) / 2 = 2; p2: 10 → (2 + 10) / 2 = 6, not (1 + 3 + 10) / 3.
    expect(
      perPaperMean([
        { paperId: "p1", value: 1 },
        { paperId: "p1", value: 3 },
        { paperId: "p2", value: 10 },
      ]),
    ).toBe(6);
  });
  it("is null without values", () => {
    expect(perPaperMean([])).toBeNull();
  });
});

describe("aggregateLab", () => {
  const code = "Code Development";
  const exec = "Code Execution";
  const outcomes: LabRunOutcome[] = [
    run({
      paperId: "p1",
      costUsd: 2,
      durationMs: 10_000,
      samples: [sample(1, 1, code), sample(0, 1, code), sample(1, 1, exec)],
    }),
    run({ paperId: "p1", costUsd: 4, durationMs: 30_000, samples: [sample(0, 0, exec), sample(1, 0, null)] }),
    run({ paperId: "p2", costUsd: 9, durationMs: 5_000, samples: [sample(1, 1, code)] }),
    // Still running: its cost so far is not a cost per paper, and it has no samples yet.
    run({ paperId: "p3", finished: false, succeeded: false, costUsd: 100, durationMs: null }),
    run({ groupKey: "b", paperId: "p1", costUsd: 1, samples: [sample(1, 0, code)] }),
  ];
  const [a, b] = aggregateLab(outcomes);

  it("pools the succeeded runs' samples: overall F1 is JudgeEval's over all of them", () => {
    const pooled = outcomes.slice(0, 3).flatMap((o) => o.samples);
    expect(a.overall).toEqual(
      computeMetrics(
        pooled.map((s) => s.human),
        pooled.map((s) => s.judge),
      ),
    );
    expect(a.overall.num_samples).toBe(6);
  });

  it("per task category, PaperBench's first, a category only with samples, no category as null", () => {
    expect(Object.keys(a.stratified)).toEqual([code, exec, "null"]);
    // Code Development: (1,1), (0,1), (1,1): class 1 F1 = 2·2/(2+3) = 0.8, class 0 F1 = 0 → 0.4.
    expect(a.stratified[code].f1).toBeCloseTo(0.4, 12);
    expect(a.stratified[code].num_samples).toBe(3);
    expect(a.stratified[exec]).toEqual(computeMetrics([1, 0], [1, 0]));
    expect(a.stratified.null.num_samples).toBe(1);
  });

  it("cost and time per paper over finished runs, per paper first", () => {
    expect(a.costPerPaperUsd).toBe((3 + 9) / 2);
    expect(a.timePerPaperS).toBe((20 + 5) / 2);
    expect(a).toMatchObject({ groupKey: "a", runs: 4, finished: 3, succeeded: 3, papers: 3 });
  });

  it("keeps groups apart, in the order they first appear", () => {
    expect(b).toMatchObject({ groupKey: "b", runs: 1, costPerPaperUsd: 1 });
    expect(b.overall.num_samples).toBe(1);
  });

  it("a group with nothing finished has no cost or time yet and zero metrics", () => {
    const [only] = aggregateLab([run({ finished: false, succeeded: false, durationMs: null })]);
    expect(only.costPerPaperUsd).toBeNull();
    expect(only.timePerPaperS).toBeNull();
    expect(only.overall.num_samples).toBe(0);
  });
});
