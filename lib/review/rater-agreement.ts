/**
 * Agreement between raters of one grading's leaves, pair by pair: two people who reviewed the same
 * leaves (inter-grader agreement, Label Studio's), and the judge against each person (the
 * judge–human agreement the studio shows elsewhere), side by side. Cohen's κ and F1 (both from
 * `lib/judge/eval/metrics.ts`: κ by `cohensKappa`, F1 as JudgeEval's macro F1, symmetric in the
 * two raters), overall and per task category, on the leaves both raters scored; scores read as
 * labels at 0.5 (`scoreLabel`). Pure.
 */
import { scoreLabel } from "@/lib/evaluations/agreement";
import { cohensKappa, metricsFromConfusion, type ConfusionMatrix } from "@/lib/judge/eval/metrics";
import { TASK_CATEGORIES } from "@/lib/rubric/types";

/** One rater's score on one leaf. */
export interface RaterScore {
  rater: string;
  leaf: string;
  score: number;
  /** The leaf's task category. */
  category: string | null;
}

export interface AgreementStats {
  /** Cohen's κ; null when undefined (both raters gave one label throughout). */
  kappa: number | null;
  f1: number;
  /** Leaves both raters scored. */
  leaves: number;
  /** Of those, leaves where their labels agree. */
  agreed: number;
}

export interface RaterPairAgreement {
  a: string;
  b: string;
  overall: AgreementStats;
  /** Per task category (`TASK_CATEGORIES`), where the two share a leaf of it. */
  byCategory: Partial<Record<(typeof TASK_CATEGORIES)[number], AgreementStats>>;
}

function statsOf(m: ConfusionMatrix): AgreementStats {
  return {
    kappa: cohensKappa(m),
    f1: metricsFromConfusion(m).f1,
    leaves: m.tn + m.fp + m.fn + m.tp,
    agreed: m.tn + m.tp,
  };
}

function add(m: ConfusionMatrix, a: 0 | 1, b: 0 | 1): void {
  if (a === 1) {
    if (b === 1) m.tp++;
    else m.fn++;
  } else if (b === 1) m.fp++;
  else m.tn++;
}

const empty = (): ConfusionMatrix => ({ tn: 0, fp: 0, fn: 0, tp: 0 });

/**
 * Every pair of raters (in the order of `raters`) that share at least one scored leaf, with their
 * agreement. A rater's score per leaf is the one given (the latest, when the caller has several).
 */
export function raterPairAgreements(scores: readonly RaterScore[], raters: readonly string[]): RaterPairAgreement[] {
  const byRater = new Map<string, Map<string, RaterScore>>();
  for (const s of scores) {
    let mine = byRater.get(s.rater);
    if (!mine) byRater.set(s.rater, (mine = new Map()));
    mine.set(s.leaf, s);
  }
  const out: RaterPairAgreement[] = [];
  for (let i = 0; i < raters.length; i++) {
    for (let j = i + 1; j < raters.length; j++) {
      const first = byRater.get(raters[i]);
      const second = byRater.get(raters[j]);
      if (!first || !second) continue;
      const overall = empty();
      const perCategory = new Map<string, ConfusionMatrix>();
      for (const [leaf, x] of first) {
        const y = second.get(leaf);
        if (!y) continue;
        const a = scoreLabel(x.score);
        const b = scoreLabel(y.score);
        add(overall, a, b);
        if (x.category === null) continue;
        let m = perCategory.get(x.category);
        if (!m) perCategory.set(x.category, (m = empty()));
        add(m, a, b);
      }
      if (overall.tn + overall.fp + overall.fn + overall.tp === 0) continue;
      const byCategory: RaterPairAgreement["byCategory"] = {};
      for (const c of TASK_CATEGORIES) {
        const m = perCategory.get(c);
        if (m) byCategory[c] = statsOf(m);
      }
      out.push({ a: raters[i], b: raters[j], overall: statsOf(overall), byCategory });
    }
  }
  return out;
}

/** The grading's verdicts, as one rater beside the people. */
export const VERDICT_RATER = "verdict";

export interface GradingRater {
  id: string;
  /** "Judge", "Imported grading", or the person's name (else email). */
  label: string;
  kind: "verdict" | "person";
  /** Leaves this rater scored (valid verdicts for the verdicts). */
  leaves: number;
}

/** `GET /api/gradings/<id>/agreement`. */
export interface GradingAgreement {
  raters: GradingRater[];
  /** Verdicts against each person first, then person against person; pairs sharing no leaf are left out. */
  pairs: RaterPairAgreement[];
}
