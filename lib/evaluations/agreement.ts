/**
 * Judge–human agreement of an evaluation: on the leaves sampled for human review, the human's
 * score is the truth and the judge's verdict the prediction; F1 is JudgeEval's (macro F1 as
 * PaperBench computes it, `lib/judge/eval/metrics.ts`), with a 95% bootstrap confidence interval:
 * the leaves resampled with replacement `draws` times (seeded, so the interval is reproducible),
 * the 2.5th and 97.5th percentiles of the F1s. Scores are read as labels at 0.5 (PaperBench's
 * leaves score 0 or 1; a human may commit a fraction). Pure; no Node built-ins.
 */
import { metricsFromConfusion, type ConfusionMatrix } from "@/lib/judge/eval/metrics";
import { mulberry32 } from "@/lib/random";
import { seedOf } from "./review-sampling";

export interface AgreementPair {
  human: number;
  judge: number;
}

export interface Agreement {
  f1: number;
  ciLow: number;
  ciHigh: number;
  /** Leaves compared. */
  leaves: number;
}

export const BOOTSTRAP_DRAWS = 1000;

/** A score as a binary label: 1 from 0.5 up (a person may commit a fraction). */
export const scoreLabel = (score: number): 0 | 1 => (score >= 0.5 ? 1 : 0);

/** The F1 of the pairs at `indices` (a bootstrap draw), through a confusion matrix. */
function f1Of(humans: Uint8Array, judges: Uint8Array, indices: ArrayLike<number>): number {
  const m: ConfusionMatrix = { tn: 0, fp: 0, fn: 0, tp: 0 };
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k];
    if (humans[i] === 1) {
      if (judges[i] === 1) m.tp++;
      else m.fn++;
    } else if (judges[i] === 1) m.fp++;
    else m.tn++;
  }
  return metricsFromConfusion(m).f1;
}

/** numpy's default percentile (linear between the closest ranks) of sorted values. */
function percentile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** F1 with its bootstrap 95% interval; null without a leaf to compare. */
export function judgeHumanAgreement(
  pairs: readonly AgreementPair[],
  options: { seed: string; draws?: number },
): Agreement | null {
  const n = pairs.length;
  if (n === 0) return null;
  const humans = Uint8Array.from(pairs, (p) => scoreLabel(p.human));
  const judges = Uint8Array.from(pairs, (p) => scoreLabel(p.judge));
  const all = Array.from({ length: n }, (_, i) => i);
  const f1 = f1Of(humans, judges, all);
  const random = mulberry32(seedOf(options.seed));
  const draws = options.draws ?? BOOTSTRAP_DRAWS;
  const f1s: number[] = [];
  const indices = new Uint32Array(n);
  for (let d = 0; d < draws; d++) {
    for (let k = 0; k < n; k++) indices[k] = Math.floor(random() * n);
    f1s.push(f1Of(humans, judges, indices));
  }
  f1s.sort((a, b) => a - b);
  return { f1, ciLow: percentile(f1s, 0.025), ciHigh: percentile(f1s, 0.975), leaves: n };
}

/** "judge agreement 0.84 ± 0.03 on 400 leaves": ± is half the interval's width. */
export function formatAgreement(a: Agreement): string {
  return `judge agreement ${a.f1.toFixed(2)} ± ${((a.ciHigh - a.ciLow) / 2).toFixed(2)} on ${a.leaves.toLocaleString("en")} ${a.leaves === 1 ? "leaf" : "leaves"}`;
}
