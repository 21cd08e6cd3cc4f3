import "server-only";
import type { Store } from "@/db/client";
import {
  listEvaluationCellRows,
  readEvaluationProgressRow,
  type EvaluationCellRow,
} from "@/db/queries/evaluation-cells";
import { getEvaluationById } from "@/db/queries/evaluations";
import { getJudgeConfigById } from "@/db/queries/judge-configs";
import { AppError } from "@/lib/errors";
import { cellStateOf } from "@/lib/evaluations/cell-state";
import type { EvaluationMatrix, MatrixCell, MatrixStage } from "@/lib/evaluations/matrix";
import { estimateEtaS, policyStateOf } from "@/lib/evaluations/pipeline";
import {
  applyPolicies,
  describePolicy,
  type CellState,
  type EvaluationCell,
  type PolicyResult,
} from "@/lib/evaluations/policies";
import { FAILURE_KINDS, type EvaluationPolicies, type FailureKind } from "@/lib/evaluations/schemas";
import { describeReproductionEnd } from "@/lib/jobs/judge-source";
import { isFlagged } from "@/lib/submissions/blacklist-monitor";
import { isUuid } from "@/lib/uuid";
import type { GradingProvenance } from "@/lib/evaluations/provenance";
import { madeOf, scoringMethodOf } from "@/lib/evaluations/scoring-method";
import { readResourcesProvidedScore } from "../resources-provided-score";
import { readEvaluationAgreement } from "../review-agreement";

const key = (paperId: string, run: number) => `${paperId}\u0000${run}`;

const FAILURE_OF_STATE: Partial<Record<CellState, FailureKind>> = {
  failed: "reproduction_failed",
  timed_out: "reproduction_timed_out",
  invalid_leaves: "judge_invalid_leaves",
};

/**
 * The evaluation page's matrix (`EvaluationMatrix`): every paper × run with its pipeline stage,
 * the state and score the policies read (the same `applyPolicies` as the summary and the
 * leaderboard), its failure and what the policy made of it, the links; the progress (ETA, GPU
 * hours, judge tokens and cost) and the result. A submission outside the pipeline (an ingested
 * result) reads as the summary reads it.
 */
export async function readEvaluationMatrix(store: Store, id: string): Promise<EvaluationMatrix> {
  const evaluation = isUuid(id) ? await getEvaluationById(store.db, id) : null;
  if (!evaluation) throw new AppError("not_found", `No evaluation with id "${id}"`);
  const [rows, progressRow, config] = await Promise.all([
    listEvaluationCellRows(store.db, id),
    readEvaluationProgressRow(store.db, id),
    evaluation.judgeConfigId ? getJudgeConfigById(store.db, evaluation.judgeConfigId) : null,
  ]);
  const papers = [...new Set([...evaluation.paperIds, ...rows.map((r) => r.paperId)])].sort();
  const byCell = new Map<string, EvaluationCellRow>();
  for (const r of rows) if (r.runIndex >= 1 && r.runIndex <= evaluation.runs) byCell.set(key(r.paperId, r.runIndex), r);

  const policyCells: EvaluationCell[] = [];
  const scoreOf = new Map<string, number | null>();
  for (const paperId of papers) {
    for (let run = 1; run <= evaluation.runs; run++) {
      const r = byCell.get(key(paperId, run));
      if (!r) {
        policyCells.push({ paperId, run, state: "pending", score: null });
        continue;
      }
      const graded = r.stage === null || r.stage === "done" || r.stage === "graded";
      let score = graded ? r.score : null;
      if (graded && evaluation.resourcesProvided && r.gradingId)
        score = (await readResourcesProvidedScore(store.db, r.gradingId))?.score ?? score;
      scoreOf.set(key(paperId, run), r.stage === null || r.stage === "done" ? score : r.score);
      const state =
        r.stage === null
          ? cellStateOf({
              imported: r.importedResult,
              jobStatus: r.latestJobStatus,
              hasGrading: r.gradingId !== null,
              invalidLeaves: r.invalidLeaves,
            })
          : policyStateOf(
              r.stage,
              r.failureKind && r.failureReason ? { kind: r.failureKind, reason: r.failureReason } : null,
            );
      policyCells.push({
        paperId,
        run,
        state,
        score,
        flagged: isFlagged(r.flags),
        ...(r.attempts !== null ? { attempts: r.attempts } : {}),
      });
    }
  }
  const result = applyPolicies(policyCells, evaluation.policies, {
    runs: evaluation.runs,
    aggregation: evaluation.aggregation,
  });
  const outcome = outcomesOf(result);

  const cells: MatrixCell[] = policyCells.map((pc) => {
    const r = byCell.get(key(pc.paperId, pc.run)) ?? null;
    const decided = outcome.get(key(pc.paperId, pc.run)) ?? null;
    const stage = stageOf(r, pc.state, decided);
    const failureKind: FailureKind | null = pc.flagged
      ? "blacklisted"
      : (r?.failureKind ?? FAILURE_OF_STATE[pc.state] ?? null);
    // The last failure seen (kept while a retry runs), and what the policy made of it.
    const failure =
      r && failureKind
        ? {
            kind: failureKind,
            reason: [r.failureReason, decided?.text].filter(Boolean).join(" — ") || failureKind.replaceAll("_", " "),
          }
        : null;
    return {
      paperId: pc.paperId,
      run: pc.run,
      stage,
      state: pc.state,
      score: decided?.what === "counted" ? decided.score : (scoreOf.get(key(pc.paperId, pc.run)) ?? null),
      submissionId: r?.submissionId ?? null,
      gradingId: r?.gradingId ?? null,
      jobId: r?.jobId ?? null,
      judgeRunId: r?.judgeRunId ?? null,
      attempts: r ? (r.attempts ?? 1) : 0,
      failure,
      reproduction: r?.reproduction ? describeReproductionEnd(r.reproduction) : null,
      flagged: pc.flagged === true,
      href: {
        submission: r ? `/submissions/${r.submissionId}` : null,
        grading: r?.gradingId ? `/gradings/${r.gradingId}` : null,
      },
    };
  });

  const done = cells.filter((c) => c.stage === "counted" || c.stage === "excluded" || c.stage === "in_review").length;
  const total = papers.length * evaluation.runs;
  return {
    evaluation: {
      id: evaluation.id,
      name: evaluation.name,
      agent: evaluation.agentName,
      split: evaluation.split,
      runs: evaluation.runs,
      variant: evaluation.variant,
      policies: evaluation.policies,
      policyText: Object.fromEntries(FAILURE_KINDS.map((k) => [k, describePolicy(evaluation.policies[k])])) as Record<
        FailureKind,
        string
      >,
      aggregation: evaluation.aggregation,
      isHuman: evaluation.isHuman,
      resourcesProvided: evaluation.resourcesProvided,
      setup: evaluation.setup,
      judgeConfig: config ? { id: config.id, name: config.name, kind: config.kind, mode: config.mode } : null,
      createdAt: evaluation.createdAt.toISOString(),
    },
    papers,
    cells,
    progress: {
      done,
      total,
      etaS: estimateEtaS(progressRow.finishedDurationsS, total - done, progressRow.inFlight),
      gpuHours: progressRow.gpuSeconds / 3600,
      judgeTokens: {
        input: progressRow.inputTokens,
        cachedInput: progressRow.cachedInputTokens,
        output: progressRow.outputTokens,
      },
      costUsd: progressRow.costUsd,
    },
    result,
    agreement: await readEvaluationAgreement(store.db, evaluation.id),
    scoring: scoringOf(rows, evaluation.policies),
  };
}

type Outcome =
  | { what: "counted"; score: number; text: string | null }
  | { what: "excluded"; text: string }
  | { what: "retrying"; text: string };

function outcomesOf(result: PolicyResult): Map<string, Outcome> {
  const out = new Map<string, Outcome>();
  for (const c of result.counted) out.set(key(c.paperId, c.run), { what: "counted", score: c.score, text: c.note });
  for (const c of result.excluded) out.set(key(c.paperId, c.run), { what: "excluded", text: c.reason });
  for (const c of result.retrying)
    out.set(key(c.paperId, c.run), { what: "retrying", text: `retrying: attempt ${c.attempt} of ${c.of}` });
  return out;
}

/** The stage shown: the pipeline's while it runs, then what the policy made of the cell. */
function stageOf(r: EvaluationCellRow | null, state: CellState, decided: Outcome | null): MatrixStage {
  if (!r) return "empty";
  if (r.stage === "uploaded" || r.stage === "reproducing" || r.stage === "judging" || r.stage === "graded")
    return r.stage;
  if (r.stage === null && state === "pending") return r.gradingId ? "judging" : "uploaded";
  if (decided?.what === "counted") return r.inReview ? "in_review" : "counted";
  if (decided?.what === "retrying") return "failed";
  return "excluded";
}

/** How the graded cells were made: the leaderboard's mark under the evaluation's policies, and each distinct provenance. */
function scoringOf(rows: readonly EvaluationCellRow[], policies: EvaluationPolicies): EvaluationMatrix["scoring"] {
  const graded = rows.filter((r) => r.gradingId !== null);
  const distinct = new Map<string, GradingProvenance>();
  for (const r of graded) {
    if (!r.provenance) continue;
    // The same judge, configuration and prompts under the same policies read as one line.
    const { evaluationId: _, ...same } = r.provenance;
    distinct.set(JSON.stringify(same), r.provenance);
  }
  return {
    method: scoringMethodOf(
      graded.map((r) => madeOf(r.provenance, r.placeholder, "judge")),
      policies,
    ),
    provenances: [...distinct.values()],
  };
}
