/**
 * The judge lab's aggregation: per group of runs (a configuration, or a configuration with the
 * judge addendum it ran with), JudgeEval's metrics pooled over the runs' samples (overall and per
 * task category, `lib/judge/eval/metrics.ts`), and what grading one paper cost and took.
 *
 * Per paper: a paper's runs are averaged first, then the papers (each paper counts once however
 * many of its submissions were graded), as PaperBench reports its judges' "cost per paper". Only
 * finished runs count towards cost and time; runs still going are counted as pending.
 * Pure; no Node built-ins.
 */
import {
  categoryKey,
  confusionOf,
  metricsFromConfusion,
  type JudgeEvalSample,
  type MetricSummary,
} from "@/lib/judge/eval/metrics";
import { TASK_CATEGORIES } from "@/lib/rubric/types";

export type LabSample = Pick<JudgeEvalSample, "human" | "judge" | "category">;

/** One lab run as the aggregation needs it. */
export interface LabRunOutcome {
  /** The group it belongs to (see the module comment). */
  groupKey: string;
  paperId: string;
  /** Ended (succeeded, failed, timed out or cancelled): its cost and time are final. */
  finished: boolean;
  /** Its grading is complete: its samples count. */
  succeeded: boolean;
  costUsd: number;
  /** From its first call to its end; null when it never started. */
  durationMs: number | null;
  samples: readonly LabSample[];
}

export interface LabGroupMetrics {
  groupKey: string;
  runs: number;
  finished: number;
  succeeded: number;
  papers: number;
  overall: MetricSummary;
  /** Per task category that has samples, PaperBench's categories first. */
  stratified: Record<string, MetricSummary>;
  /** Null until a run of the group finished. */
  costPerPaperUsd: number | null;
  timePerPaperS: number | null;
}

/** The mean over papers of each paper's mean; null when there is no value. */
export function perPaperMean(values: readonly { paperId: string; value: number }[]): number | null {
  const byPaper = new Map<string, number[]>();
  for (const { paperId, value } of values) {
    const list = byPaper.get(paperId);
    if (list) list.push(value);
    else byPaper.set(paperId, [value]);
  }
  if (byPaper.size === 0) return null;
  let sum = 0;
  for (const list of byPaper.values()) sum += list.reduce((a, b) => a + b, 0) / list.length;
  return sum / byPaper.size;
}

function metricsOf(samples: readonly LabSample[]): Pick<LabGroupMetrics, "overall" | "stratified"> {
  const byCategory = new Map<string, LabSample[]>(TASK_CATEGORIES.map((c) => [c, []]));
  for (const s of samples) {
    const key = categoryKey(s.category);
    const list = byCategory.get(key);
    if (list) list.push(s);
    else byCategory.set(key, [s]);
  }
  const metrics = (list: readonly LabSample[]) =>
    metricsFromConfusion(
      confusionOf(
        list.map((s) => s.human),
        list.map((s) => s.judge),
      ),
    );
  const stratified: Record<string, MetricSummary> = {};
  for (const [key, list] of byCategory) if (list.length > 0) stratified[key] = metrics(list);
  return { overall: metrics(samples), stratified };
}

/** Each group's metrics, in the order its first run appears. */
export function aggregateLab(outcomes: readonly LabRunOutcome[]): LabGroupMetrics[] {
  const groups = new Map<string, LabRunOutcome[]>();
  for (const o of outcomes) {
    const list = groups.get(o.groupKey);
    if (list) list.push(o);
    else groups.set(o.groupKey, [o]);
  }
  return [...groups].map(([groupKey, runs]) => {
    const finished = runs.filter((r) => r.finished);
    const succeeded = runs.filter((r) => r.succeeded);
    return {
      groupKey,
      runs: runs.length,
      finished: finished.length,
      succeeded: succeeded.length,
      papers: new Set(runs.map((r) => r.paperId)).size,
      ...metricsOf(succeeded.flatMap((r) => r.samples)),
      costPerPaperUsd: perPaperMean(finished.map((r) => ({ paperId: r.paperId, value: r.costUsd }))),
      timePerPaperS: perPaperMean(
        finished.filter((r) => r.durationMs !== null).map((r) => ({ paperId: r.paperId, value: r.durationMs! / 1000 })),
      ),
    };
  });
}
