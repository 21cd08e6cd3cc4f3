/**
 * How a leaderboard row's gradings were made, in one mark: "PaperBench method" only when every
 * counted grading was judged in paperbench mode by a model (`llm`) judge under PaperBench's
 * default failure policies; otherwise what they were ("efficient mode", "paperbench mode · custom
 * policies", "imported gradings", …), and a row with a placeholder judge's grading (Dummy,
 * Random) is "placeholder judge — not public" (only members ever see one). Pure.
 */
import { isPaperbenchDefaultPolicies } from "./default-policies";
import type { EvaluationPolicies } from "./schemas";
import { isPaperbenchMethod, isPlaceholderJudge, type GradingProvenance } from "./provenance";

export type ScoringMethodKind =
  | "paperbench"
  | "paperbench_mode"
  | "efficient"
  | "custom_policies"
  | "placeholder"
  | "imported"
  | "human"
  | "unrecorded"
  | "mixed"
  | "none";

export interface ScoringMethod {
  kind: ScoringMethodKind;
  label: string;
}

export const PLACEHOLDER_LABEL = "placeholder judge — not public";

type Made = Pick<GradingProvenance, "origin" | "judgeKind" | "mode" | "policies">;

function methodOfOne(g: Made, policies: Partial<EvaluationPolicies> | null): ScoringMethod {
  if (isPlaceholderJudge(g.judgeKind)) return { kind: "placeholder", label: PLACEHOLDER_LABEL };
  if (g.origin === "human") return { kind: "human", label: "graded by people" };
  if (g.judgeKind === "llm" && g.mode === "paperbench") {
    if (isPaperbenchMethod(g, policies)) return { kind: "paperbench", label: "PaperBench method" };
    if (policies === null) return { kind: "paperbench_mode", label: "paperbench mode · outside an evaluation" };
    return { kind: "custom_policies", label: "paperbench mode · custom policies" };
  }
  if (g.judgeKind === "llm" && g.mode === "efficient") {
    return {
      kind: "efficient",
      label: policies && !isPaperbenchDefaultPolicies(policies) ? "efficient mode · custom policies" : "efficient mode",
    };
  }
  if (g.origin === "import" || g.origin === "seed")
    return { kind: "imported", label: g.origin === "seed" ? "demo data" : "imported gradings" };
  return { kind: "unrecorded", label: "judge mode not recorded" };
}

/** What the mark reads of a grading; one stored without a provenance reads as imported (a placeholder's as Dummy's). */
export function madeOf(provenance: GradingProvenance | null, placeholder: boolean, kind: string): Made {
  if (provenance) return provenance;
  return {
    origin: kind === "human" ? "human" : "import",
    judgeKind: placeholder ? "dummy" : null,
    mode: null,
    policies: null,
  };
}

/**
 * The mark of a row from its counted gradings. `policies`: the evaluation's the row was computed
 * under; `undefined` (a row "as graded") reads each grading's own.
 */
export function scoringMethodOf(
  gradings: readonly Made[],
  policies?: Partial<EvaluationPolicies> | null,
): ScoringMethod {
  if (gradings.length === 0) return { kind: "none", label: "nothing graded" };
  const methods = gradings.map((g) => methodOfOne(g, policies === undefined ? g.policies : policies));
  const placeholder = methods.find((m) => m.kind === "placeholder");
  if (placeholder) return placeholder;
  const labels = [...new Set(methods.map((m) => m.label))];
  if (labels.length === 1) return methods[0];
  return { kind: "mixed", label: `mixed: ${labels.sort().join(" + ")}` };
}
