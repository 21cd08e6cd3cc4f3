/**
 * Judge runs over time, per judge configuration (`/judge`, as Langfuse charts a model's traces):
 * each finished run's cost, tokens, latency and invalid-leaf rate, oldest first, with the
 * configuration's totals. Read from the runs' own rows (`judge_runs`: the totals its verdicts add
 * up to, its start and finish). Pure.
 */

/** One finished run as the history reads it. */
export interface JudgeRunHistoryRow {
  runId: string;
  /** Null once the configuration is deleted: its runs keep the name they ran under. */
  configId: string | null;
  /** The configuration's name now, or the one it ran under. */
  configName: string;
  model: string;
  startedAt: Date | null;
  finishedAt: Date;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  leavesDone: number;
  leavesInvalid: number;
}

export interface JudgeRunPoint {
  runId: string;
  finishedAt: string;
  costUsd: number;
  /** Input and output tokens (cached input and reasoning are part of them). */
  tokens: number;
  /** Seconds from its start to its finish; null for a run that never started (cancelled queued). */
  latencyS: number | null;
  /** Invalid leaves over the leaves it graded; null with none graded. */
  invalidRate: number | null;
}

export interface JudgeConfigHistory {
  /** The configuration's id, or `name:<name>` for a deleted one's runs. */
  key: string;
  configId: string | null;
  name: string;
  model: string;
  runs: JudgeRunPoint[];
  totals: {
    runs: number;
    costUsd: number;
    tokens: number;
    /** Mean over the runs that started. */
    meanLatencyS: number | null;
    /** Every run's invalid leaves over every run's graded leaves (a big run weighs more). */
    invalidRate: number | null;
  };
}

/** The runs grouped by configuration, each oldest first; configurations by their latest run, newest first. */
export function judgeRunHistory(rows: readonly JudgeRunHistoryRow[]): JudgeConfigHistory[] {
  const groups = new Map<string, { first: JudgeRunHistoryRow; rows: JudgeRunHistoryRow[] }>();
  for (const row of rows) {
    const key = row.configId ?? `name:${row.configName}`;
    const group = groups.get(key) ?? { first: row, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups]
    .map(([key, { first, rows: runs }]) => {
      const sorted = [...runs].sort(
        (a, b) => a.finishedAt.getTime() - b.finishedAt.getTime() || a.runId.localeCompare(b.runId),
      );
      const points = sorted.map(pointOf);
      const latencies = points.map((p) => p.latencyS).filter((s): s is number => s !== null);
      const done = sorted.reduce((n, r) => n + r.leavesDone, 0);
      const invalid = sorted.reduce((n, r) => n + r.leavesInvalid, 0);
      return {
        key,
        configId: first.configId,
        name: sorted[sorted.length - 1].configName,
        model: sorted[sorted.length - 1].model,
        runs: points,
        totals: {
          runs: points.length,
          costUsd: points.reduce((n, p) => n + p.costUsd, 0),
          tokens: points.reduce((n, p) => n + p.tokens, 0),
          meanLatencyS: latencies.length ? latencies.reduce((n, s) => n + s, 0) / latencies.length : null,
          invalidRate: done > 0 ? invalid / done : null,
        },
      };
    })
    .sort(
      (a, b) =>
        b.runs[b.runs.length - 1].finishedAt.localeCompare(a.runs[a.runs.length - 1].finishedAt) ||
        a.name.localeCompare(b.name),
    );
}

function pointOf(row: JudgeRunHistoryRow): JudgeRunPoint {
  return {
    runId: row.runId,
    finishedAt: row.finishedAt.toISOString(),
    costUsd: row.costUsd,
    tokens: row.inputTokens + row.outputTokens,
    latencyS: row.startedAt ? Math.max(0, (row.finishedAt.getTime() - row.startedAt.getTime()) / 1000) : null,
    invalidRate: row.leavesDone > 0 ? row.leavesInvalid / row.leavesDone : null,
  };
}
