/**
 * How a grading was made (migration 0021, `gradings.provenance`): the judge's kind and model, its
 * mode, the configuration (its id and a frozen copy of the fields that change scores), where the
 * prompts came from and the evaluation's failure policies. A later edit of the configuration or
 * of the evaluation does not change what a grading says of itself. Pure: the grading page, the
 * evaluation page and the leaderboard read it the same way.
 */
import type { JudgeKind, JudgeMode } from "@/lib/judge/config";
import type { EvaluationPolicies } from "./schemas";
import { isPaperbenchDefaultPolicies } from "./default-policies";

/**
 * The placeholder judges: PaperBench's DummyJudge (every leaf 1) and RandomJudge. They exist for
 * demos and tests; their scores say nothing of a submission, so they never reach a public figure.
 */
export const PLACEHOLDER_JUDGE_KINDS = ["dummy", "random"] as const;

/** A judge kind (or an imported file's `judge_type`) that is a placeholder judge. */
export function isPlaceholderJudge(kindOrType: string | null | undefined): boolean {
  return kindOrType != null && (PLACEHOLDER_JUDGE_KINDS as readonly string[]).includes(kindOrType);
}

/** The configuration fields that change a score, as they were when the grading started. */
export interface ProvenanceConfig {
  id: string | null;
  name: string | null;
  model: string;
  mode: JudgeMode;
  reasoningEffort: string | null;
  contextWindow: number;
  parseModel: string | null;
  /** Nodes at this depth graded as one pseudo-leaf; null: every leaf. */
  maxDepth: number | null;
}

export interface GradingProvenance {
  /**
   * `judge_run`: the studio's judge; `import`: a graded file (its `judge_type` kept in `judgeKind`
   * when it is a placeholder's); `human`: a person; `seed`: the demo's synthetic data;
   * `backfill`: a grading stored before migration 0021, reconstructed from what was kept.
   */
  origin: "judge_run" | "import" | "human" | "seed" | "backfill";
  /** The judge's kind; null for a human or an imported grading of an unknown judge. */
  judgeKind: JudgeKind | null;
  judgeModel: string | null;
  mode: JudgeMode | null;
  config: ProvenanceConfig | null;
  /** "PaperBench <commit>" (paperbench mode: PaperBench's own prompts) or "studio <version>"; null when unknown. */
  promptSource: string | null;
  /** The evaluation the grading was made for, and its failure policies then; null outside an evaluation. */
  evaluationId: string | null;
  policies: EvaluationPolicies | null;
}

/** What the provenance says of a grading stored without one (`gradings.judge_type` / `judge_model`). */
export function fallbackProvenance(grading: {
  kind: string;
  judgeType: string | null;
  judgeModel: string | null;
  source?: { format: string };
}): GradingProvenance {
  const placeholder = isPlaceholderJudge(grading.judgeType);
  return {
    origin: grading.kind === "human" ? "human" : grading.source?.format === "seed" ? "seed" : "import",
    judgeKind: placeholder ? (grading.judgeType as JudgeKind) : null,
    judgeModel: grading.judgeModel,
    mode: null,
    config: null,
    promptSource: null,
    evaluationId: null,
    policies: null,
  };
}

/** "PaperBench <12 hex digits>" for paperbench mode's prompts, else "studio <version>". */
export function promptSourceLabel(mode: JudgeMode, paperbenchCommit: string | null, studioVersion: string): string {
  if (mode === "paperbench")
    return paperbenchCommit ? `PaperBench ${paperbenchCommit.slice(0, 12)}` : "PaperBench (commit unknown)";
  return `studio ${studioVersion}`;
}

/**
 * "PaperBench method": judged in paperbench mode by a model (`llm`) judge under PaperBench's
 * default failure policies. Only such scores sit beside PaperBench's published ones.
 */
export function isPaperbenchMethod(
  p: Pick<GradingProvenance, "judgeKind" | "mode">,
  policies: Partial<EvaluationPolicies> | null,
): boolean {
  return p.judgeKind === "llm" && p.mode === "paperbench" && isPaperbenchDefaultPolicies(policies);
}

/** One line: "o3-mini · paperbench mode · PaperBench 51052cede8cc · PaperBench default policies". */
export function provenanceSummary(p: GradingProvenance): string {
  if (p.origin === "human") return "graded by a person";
  if (isPlaceholderJudge(p.judgeKind)) return `${p.judgeKind} placeholder judge · not public`;
  const parts: string[] = [];
  if (p.origin === "import") parts.push("imported file");
  if (p.origin === "seed") parts.push("demo data (synthetic)");
  if (p.judgeModel) parts.push(p.judgeModel);
  if (p.mode) parts.push(`${p.mode} mode`);
  if (p.promptSource) parts.push(p.promptSource);
  if (p.evaluationId)
    parts.push(
      p.policies && isPaperbenchDefaultPolicies(p.policies) ? "PaperBench default policies" : "custom policies",
    );
  if (p.origin === "backfill") parts.push("recorded before provenance (partly reconstructed)");
  return parts.join(" · ") || "unknown judge";
}

/** Every field, for the details under the line. */
export function provenanceDetails(p: GradingProvenance): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [{ label: "origin", value: p.origin }];
  out.push({
    label: "judge",
    value: p.judgeKind ? `${p.judgeKind}${isPlaceholderJudge(p.judgeKind) ? " (placeholder: members only)" : ""}` : "—",
  });
  out.push({ label: "model", value: p.judgeModel ?? "—" });
  out.push({ label: "mode", value: p.mode ?? "—" });
  if (p.config) {
    out.push({
      label: "configuration",
      value: p.config.name ? `${p.config.name}${p.config.id ? ` (${p.config.id})` : ""}` : (p.config.id ?? "—"),
    });
    out.push({ label: "reasoning effort", value: p.config.reasoningEffort ?? "—" });
    out.push({ label: "context window", value: String(p.config.contextWindow) });
    out.push({ label: "parse model", value: p.config.parseModel ?? "—" });
    out.push({ label: "max depth", value: p.config.maxDepth === null ? "every leaf" : String(p.config.maxDepth) });
  }
  out.push({ label: "prompts", value: p.promptSource ?? "—" });
  out.push({
    label: "failure policies",
    value: p.policies
      ? `${Object.entries(p.policies)
          .map(([k, v]) => `${k}: ${typeof v === "string" ? v : `retry ${v.retry}`}`)
          .join(", ")}${isPaperbenchDefaultPolicies(p.policies) ? " (PaperBench's defaults)" : ""}`
      : "— (not in an evaluation)",
  });
  return out;
}
