/**
 * The public leaderboard's figures, as PaperBench's `paperbench/metrics.py` computes them:
 * one run of an agent scores the mean of its root scores over the papers of a split (its
 * "average replication score"); an agent scores the mean over its complete runs ± the standard
 * error (sample std, ddof 1, / √n; none for a single run). Only runs that graded every paper of
 * the split count; the others are listed with the papers they miss. The per-paper breakdown is
 * over every run that graded the paper, complete or not (PaperBench's `per_paper_results`).
 * Means and standard errors follow numpy's summation order (`stats.ts`); a run's mean adds its
 * papers in the split's order.
 *
 * Ranks: agents with a complete run, by mean, highest first; agents with the same exact mean share a
 * rank (1, 1, 3), whatever the shown percentage rounds to; "the same" forgives only floating-point
 * rounding (`sameMean`), so runs that add up in another order still tie. An agent without a complete run is not ranked: it follows the ranked ones with its
 * coverage (the papers of the split some run of it graded, with a published score) and the mean of
 * its per-paper means over those papers, most papers first, so a board is never blank because no
 * run is complete. A per-paper board is the board of a one-paper split.
 *
 * A grading under an open blind review (`pendingReview`) is published nowhere until the review is
 * done: its score would let the grader work out the verdicts they are scoring blind. Its run is
 * left out of the agent's mean (reason `pending_review`), which uses the agent's other complete
 * runs or, with none, waits (null); its paper's breakdown counts it as pending, without its score.
 * Pure; no Node built-ins.
 */
import { numpyMean, standardError } from "./stats";

/** One graded submission: an agent's run on one paper. */
export interface LeaderboardRow {
  agentId: string;
  /** Identifies the run (seed) among the agent's runs. */
  runId: string;
  paperId: string;
  /** `full`, `code-dev`, … Rows of other variants than the one asked for are ignored. */
  variant?: string;
  rootScore: number;
  /** A human reviewed (and may have overridden) the judge's grading. */
  humanReviewed?: boolean;
  judgeModel?: string | null;
  /** The grading is under an open blind review: its score is not published yet. */
  pendingReview?: boolean;
}

export interface LeaderboardSplit {
  name: string;
  paperIds: readonly string[];
}

export interface LeaderboardOptions {
  /** Only rows of this variant count (rows without a variant count for any). */
  variant?: string;
}

export interface RunScore {
  runId: string;
  /** Mean root score over the split's papers. */
  score: number;
  /** Papers of the run graded by a reviewed grading. */
  humanReviewedPapers: number;
  judgeModels: string[];
}

export type ExcludedRunReason = "incomplete" | "duplicate_papers" | "pending_review";

export interface ExcludedRun {
  runId: string;
  reason: ExcludedRunReason;
  /** Papers of the split the run did not grade (`incomplete`). */
  missingPapers: string[];
  /** Papers the run has several rows for (`duplicate_papers`): which one counts is not clear. */
  duplicatePapers: string[];
  /** Papers whose grading is under an open blind review (`pending_review`). */
  pendingPapers: string[];
  /** Human-readable: "missing 2 of 20 papers: bbox, fre". */
  message: string;
}

export interface PaperBreakdown {
  paperId: string;
  mean: number | null;
  stdErr: number | null;
  nRuns: number;
  scores: { runId: string; score: number }[];
  /** Runs that graded the paper with a grading under an open blind review (not in `scores`). */
  pendingRuns: number;
}

export interface AgentEntry {
  agentId: string;
  /** 1 for the best; the same mean, the same rank; null without a complete run. */
  rank: number | null;
  /** Mean over complete runs; `null` when the agent has none. */
  mean: number | null;
  /** Standard error over complete runs; `null` for fewer than two. */
  stdErr: number | null;
  nRuns: number;
  /** The complete runs, in the order first seen. */
  runs: RunScore[];
  excludedRuns: ExcludedRun[];
  /** One entry per paper of the split, in the split's order. */
  perPaper: PaperBreakdown[];
  /** Judges of the complete runs; without one, of every grading with a published score. */
  judgeModels: string[];
  /** Of the complete runs' papers, how many gradings were human-reviewed. */
  humanReviewedPapers: number;
  /**
   * Papers of the split with a published score from any run, and the mean of their per-paper
   * means (in the split's order): what an agent without a complete run is shown with.
   */
  coverage: { papers: number; mean: number | null };
}

export interface Leaderboard {
  split: string;
  paperIds: string[];
  /**
   * Ranked: highest mean first; then the agents without a complete run, most papers covered
   * first, then by their mean over those papers; ties by agent id.
   */
  agents: AgentEntry[];
}

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/** The leaderboard of the split from graded rows (rows of papers outside the split are ignored). */
export function computeLeaderboard(
  rows: readonly LeaderboardRow[],
  split: LeaderboardSplit,
  options: LeaderboardOptions = {},
): Leaderboard {
  const inSplit = new Set(split.paperIds);
  const paperIds = [...new Set(split.paperIds)];
  // agent → run → paper → rows
  const agents = new Map<string, Map<string, Map<string, LeaderboardRow[]>>>();
  for (const row of rows) {
    if (!inSplit.has(row.paperId)) continue;
    if (options.variant !== undefined && row.variant !== undefined && row.variant !== options.variant) continue;
    let runs = agents.get(row.agentId);
    if (!runs) agents.set(row.agentId, (runs = new Map()));
    let papers = runs.get(row.runId);
    if (!papers) runs.set(row.runId, (papers = new Map()));
    const list = papers.get(row.paperId);
    if (list) list.push(row);
    else papers.set(row.paperId, [row]);
  }

  const entries: AgentEntry[] = [];
  for (const [agentId, runs] of agents) {
    const complete: RunScore[] = [];
    const excludedRuns: ExcludedRun[] = [];
    const perPaperScores = new Map<string, { runId: string; score: number }[]>(paperIds.map((p) => [p, []]));
    const perPaperPending = new Map<string, number>();
    const judgeModels = new Set<string>();
    // Judges of every published grading: an agent without a complete run is shown with these.
    const publishedJudges = new Set<string>();
    let humanReviewedPapers = 0;
    for (const [runId, papers] of runs) {
      const duplicatePapers = paperIds.filter((p) => (papers.get(p)?.length ?? 0) > 1);
      if (duplicatePapers.length > 0) {
        excludedRuns.push({
          runId,
          reason: "duplicate_papers",
          missingPapers: paperIds.filter((p) => !papers.has(p)),
          duplicatePapers,
          pendingPapers: [],
          message: `several gradings of ${duplicatePapers.length === 1 ? "a paper" : `${duplicatePapers.length} papers`}: ${duplicatePapers.join(", ")}`,
        });
        continue;
      }
      for (const [paperId, [row]] of papers) {
        if (row.pendingReview) perPaperPending.set(paperId, (perPaperPending.get(paperId) ?? 0) + 1);
        else {
          perPaperScores.get(paperId)!.push({ runId, score: row.rootScore });
          if (row.judgeModel) publishedJudges.add(row.judgeModel);
        }
      }
      const missingPapers = paperIds.filter((p) => !papers.has(p));
      if (missingPapers.length > 0) {
        excludedRuns.push({
          runId,
          reason: "incomplete",
          missingPapers,
          duplicatePapers: [],
          pendingPapers: [],
          message: `missing ${missingPapers.length} of ${paperIds.length} papers: ${missingPapers.join(", ")}`,
        });
        continue;
      }
      const pendingPapers = paperIds.filter((p) => papers.get(p)![0].pendingReview);
      if (pendingPapers.length > 0) {
        excludedRuns.push({
          runId,
          reason: "pending_review",
          missingPapers: [],
          duplicatePapers: [],
          pendingPapers,
          message: `pending review: ${pendingPapers.length === 1 ? "a blind review is open on" : `blind reviews are open on ${pendingPapers.length} papers:`} ${pendingPapers.join(", ")}`,
        });
        continue;
      }
      const ordered = paperIds.map((p) => papers.get(p)![0]);
      const models = sortedUnique(ordered.flatMap((r) => (r.judgeModel ? [r.judgeModel] : [])));
      for (const m of models) judgeModels.add(m);
      const reviewed = ordered.filter((r) => r.humanReviewed).length;
      humanReviewedPapers += reviewed;
      complete.push({
        runId,
        score: numpyMean(ordered.map((r) => r.rootScore)),
        humanReviewedPapers: reviewed,
        judgeModels: models,
      });
    }
    const scores = complete.map((r) => r.score);
    const perPaper = paperIds.map((paperId): PaperBreakdown => {
      const list = perPaperScores.get(paperId)!;
      const values = list.map((s) => s.score);
      return {
        paperId,
        mean: values.length > 0 ? numpyMean(values) : null,
        stdErr: standardError(values),
        nRuns: values.length,
        scores: list,
        pendingRuns: perPaperPending.get(paperId) ?? 0,
      };
    });
    const covered = perPaper.flatMap((p) => (p.mean === null ? [] : [p.mean]));
    entries.push({
      agentId,
      rank: null,
      mean: scores.length > 0 ? numpyMean(scores) : null,
      stdErr: standardError(scores),
      nRuns: scores.length,
      runs: complete,
      excludedRuns,
      perPaper,
      judgeModels: [...(complete.length > 0 ? judgeModels : publishedJudges)].sort(),
      humanReviewedPapers,
      coverage: { papers: covered.length, mean: covered.length > 0 ? numpyMean(covered) : null },
    });
  }
  rankEntries(entries);
  return { split: split.name, paperIds, agents: entries };
}

/**
 * Two means are the same when they differ by no more than floating-point rounding: the mean of
 * 0.1, 0.2, 0.3 is 0.6000000000000001 and of 0.3, 0.2, 0.1 is 0.6. Scores live in [0, 1], so an
 * absolute bound far below any real difference (a leaf of a 10,000-leaf rubric weighs 1e-4) does.
 */
const sameMean = (a: number, b: number) => Math.abs(a - b) <= 1e-12;

/** Descending, nulls last; the same mean (`sameMean`) is a tie. */
const byHigher = (a: number | null, b: number | null) =>
  a === null || b === null ? (a === b ? 0 : a === null ? 1 : -1) : sameMean(a, b) ? 0 : b - a;

/** What ranking reads of an entry (an `AgentEntry`, or a row computed another way). */
export interface Rankable {
  agentId: string;
  rank: number | null;
  mean: number | null;
  coverage: { papers: number; mean: number | null };
}

/** Ranked agents by mean; then the unranked by coverage, then their mean over it; then agent id. */
function compareEntries(a: Rankable, b: Rankable): number {
  return (
    byHigher(a.mean, b.mean) ||
    b.coverage.papers - a.coverage.papers ||
    byHigher(a.coverage.mean, b.coverage.mean) ||
    (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0)
  );
}

/**
 * Sorts entries (`compareEntries`) and gives standard competition ranks: the same mean shares the
 * rank of the first with it, the next mean takes its position among the ranked (1, 1, 3); no
 * mean, no rank. A baseline (a human's row) sorts in by its mean but takes no rank and no
 * position: it shows where agents stand against it without moving their ranks.
 */
export function rankEntries<T extends Rankable>(entries: T[], isBaseline: (entry: T) => boolean = () => false): T[] {
  entries.sort(compareEntries);
  let position = 0;
  let previous: T | null = null;
  for (const entry of entries) {
    if (entry.mean === null || isBaseline(entry)) {
      entry.rank = null;
      continue;
    }
    position++;
    entry.rank = previous !== null && sameMean(previous.mean!, entry.mean) ? previous.rank : position;
    previous = entry;
  }
  return entries;
}
