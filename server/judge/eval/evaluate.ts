import "server-only";
import type { Executor, Store } from "@/db/client";
import { getGradingById } from "@/db/queries/gradings";
import { AppError } from "@/lib/errors";
import {
  categoryKey,
  evaluateJudge,
  judgeEvalResultsJson,
  type ExcludedLeaf,
  type JudgeEvalPair,
} from "@/lib/judge/eval/metrics";
import { GradingInputError } from "@/lib/grading/recompute";
import type { GradedNode, JsonValue } from "@/lib/grading/types";
import { DISAGREEMENTS_SHOWN, type JudgeEvalCandidate, type JudgeEvalStudioReport } from "@/lib/judge/eval/types";
import { getPinnedGradedTree } from "@/server/gradings/pinned-grading";

/** JudgeEval of the pairs chosen (see `candidates.ts`): the report, and PaperBench's `results.json`. */

/** A loaded pair: the trees compared, and the judge tree's node keys (pre-order) for links to the review page. */
export interface LoadedJudgeEvalPair {
  candidate: JudgeEvalCandidate;
  human: GradedNode;
  judge: GradedNode;
  judgeKeys: string[];
  tokenUsage: JsonValue;
}

async function loadJudgeEvalPairs(
  db: Executor,
  candidates: readonly JudgeEvalCandidate[],
): Promise<LoadedJudgeEvalPair[]> {
  const out: LoadedJudgeEvalPair[] = [];
  for (const candidate of candidates) {
    const judgeGrading = await getGradingById(db, candidate.judgeGradingId);
    if (!judgeGrading) throw new AppError("not_found", "A grading went away meanwhile; try again");
    const judgePinned = await getPinnedGradedTree(db, judgeGrading);
    let human: GradedNode;
    if (candidate.truth === "review") {
      human = judgePinned.scores.toTree();
    } else {
      const humanGrading = await getGradingById(db, candidate.humanGradingId);
      if (!humanGrading) throw new AppError("not_found", "A grading went away meanwhile; try again");
      human = (await getPinnedGradedTree(db, humanGrading)).scores.toTree();
    }
    out.push({
      candidate,
      human,
      judge: judgePinned.tree,
      judgeKeys: judgePinned.keys,
      tokenUsage: (judgeGrading.tokenUsage ?? null) as JsonValue,
    });
  }
  return out;
}

// ── The report ───────────────────────────────────────────────────────────────

/** Pairs JudgeEval can read (binary leaf scores); the others are skipped with the reason. */
function usablePairs(loaded: readonly LoadedJudgeEvalPair[]): {
  usable: LoadedJudgeEvalPair[];
  skipped: JudgeEvalStudioReport["skipped"];
} {
  const usable: LoadedJudgeEvalPair[] = [];
  const skipped: JudgeEvalStudioReport["skipped"] = [];
  for (const pair of loaded) {
    try {
      evaluateJudge([asPair(pair)]);
      usable.push(pair);
    } catch (err) {
      if (!(err instanceof GradingInputError)) throw err;
      skipped.push({ candidate: pair.candidate, message: err.message });
    }
  }
  return { usable, skipped };
}

function labelOf(c: JudgeEvalCandidate): string {
  return `${c.paperId} · ${c.agentName} · run ${c.runIndex}${c.variant === "code-dev" ? " · Code-Dev" : ""}`;
}

function asPair(pair: LoadedJudgeEvalPair): JudgeEvalPair {
  return { label: labelOf(pair.candidate), human: pair.human, judge: pair.judge };
}

/** JudgeEval pooled over the candidates given (see `listJudgeEvalCandidates`, `getJudgeEvalCandidates`). */
export async function evaluateCandidates(
  store: Store,
  candidates: readonly JudgeEvalCandidate[],
): Promise<JudgeEvalStudioReport> {
  return evaluateLoaded(await loadJudgeEvalPairs(store.db, uniqueCandidates(candidates)));
}

function uniqueCandidates(candidates: readonly JudgeEvalCandidate[]): JudgeEvalCandidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => !seen.has(c.submissionId) && (seen.add(c.submissionId), true));
}

function evaluateLoaded(loaded: readonly LoadedJudgeEvalPair[]): JudgeEvalStudioReport {
  const { usable, skipped } = usablePairs(loaded);
  const report = evaluateJudge(usable.map(asPair));
  const excluded: Record<ExcludedLeaf["reason"], number> = { invalid_judge: 0, invalid_human: 0, unmatched: 0 };
  const excludedPerPair = new Array<number>(usable.length).fill(0);
  for (const e of report.excluded) {
    excluded[e.reason]++;
    excludedPerPair[e.pair]++;
  }
  const disagreementsPerPair = new Array<number>(usable.length).fill(0);
  for (const d of report.disagreements) disagreementsPerPair[d.pair]++;
  return {
    overall: report.overall,
    stratified: report.stratified,
    confusion: report.confusion,
    stratifiedConfusion: report.stratifiedConfusion,
    pairs: usable.map((pair, i) => ({
      candidate: pair.candidate,
      overall: report.perPair[i].overall,
      stratified: report.perPair[i].stratified,
      confusion: report.perPair[i].confusion,
      disagreements: disagreementsPerPair[i],
      excluded: excludedPerPair[i],
    })),
    disagreements: report.disagreements.slice(0, DISAGREEMENTS_SHOWN).map((d) => {
      const pair = usable[d.pair];
      const c = pair.candidate;
      return {
        submissionId: c.submissionId,
        paperId: c.paperId,
        agentName: c.agentName,
        runIndex: c.runIndex,
        judgeGradingId: c.judgeGradingId,
        nodeKey: pair.judgeKeys[d.index],
        nodeId: d.id,
        path: d.path,
        requirements: d.requirements,
        category: categoryKey(d.category),
        human: d.human,
        judge: d.judge,
        share: d.share,
      };
    }),
    disagreementCount: report.disagreements.length,
    excluded,
    skipped,
  };
}

/**
 * PaperBench's JudgeEval `results.json` for the submissions given: one result per submission
 * (`example_id` = `<paper>/<agent>/run-<n>[/code-dev]`, the judge's graded tree), the pooled
 * `aggregate_metrics`. `judge_type` and `judge_kwargs.model` are the judge gradings' own when
 * they all share one (else `mixed` / null); `code_only` when every submission is Code-Dev.
 * Submissions JudgeEval cannot read (a score other than 0 or 1) are a 400.
 */
export async function judgeEvalResultsFile(
  store: Store,
  chosen: readonly JudgeEvalCandidate[],
  opts: { timestamp?: string } = {},
): Promise<{ body: string; fileName: string }> {
  const candidates = uniqueCandidates(chosen);
  if (candidates.length === 0)
    throw new AppError("bad_request", "submissionIds: choose at least one submission", [
      { path: "submissionIds", message: "is empty" },
    ]);
  const loaded = await loadJudgeEvalPairs(store.db, candidates);
  const { skipped } = usablePairs(loaded);
  if (skipped.length > 0) {
    throw new AppError(
      "bad_request",
      `${labelOf(skipped[0].candidate)}: ${skipped[0].message}`,
      skipped.map((s) => ({ path: s.candidate.submissionId, message: s.message })),
    );
  }
  const report = evaluateJudge(loaded.map(asPair));
  const one = <T>(values: T[]): T | null => (new Set(values).size === 1 ? values[0] : null);
  const judgeType = one(candidates.map((c) => c.judgeType ?? "unknown")) ?? "mixed";
  const model = one(candidates.map((c) => c.judgeModel));
  const body = judgeEvalResultsJson(report, {
    judge_type: judgeType,
    code_only: candidates.every((c) => c.variant === "code-dev"),
    judge_kwargs: model ? { model } : null,
    examples: loaded.map((pair) => ({
      example_id: `${pair.candidate.paperId}/${pair.candidate.agentName}/run-${pair.candidate.runIndex}${pair.candidate.variant === "code-dev" ? "/code-dev" : ""}`,
      paper_id: pair.candidate.paperId,
      judge: pair.judge,
      token_usage: pair.tokenUsage,
    })),
    timestamp: opts.timestamp,
  });
  const papers = [...new Set(candidates.map((c) => c.paperId))];
  return { body, fileName: `judge-eval-${papers.length === 1 ? papers[0] : `${papers.length}-papers`}-results.json` };
}
