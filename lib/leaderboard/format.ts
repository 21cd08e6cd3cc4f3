/**
 * How the leaderboard writes scores: as percentages with one decimal, as PaperBench's paper
 * reports them ("21.0% ± 0.8"). Pure; shared by the page and its tests.
 */

/** `0.4132` → `"41.3%"`; `null` → `"—"`. */
export function formatPercent(score: number | null, digits = 1): string {
  if (score === null || !Number.isFinite(score)) return "—";
  return `${(score * 100).toFixed(digits)}%`;
}

/** `(0.4132, 0.021)` → `"41.3% ± 2.1"`; no standard error (a single run) → `"41.3%"`. */
export function formatMeanSe(mean: number | null, stdErr: number | null, digits = 1): string {
  if (mean === null || !Number.isFinite(mean)) return "—";
  const m = formatPercent(mean, digits);
  return stdErr === null || !Number.isFinite(stdErr) ? m : `${m} ± ${(stdErr * 100).toFixed(digits)}`;
}

/**
 * How many decimals the ranked scores need so that rows of different rank never read the same:
 * one as PaperBench writes them, more (up to three) only when two means that rank apart round
 * alike ("60.24%" above "60.22%", not "60.2%" above "60.2%"). `rows` in rank order.
 */
export function rankedScoreDigits(rows: { rank: number | null; mean: number | null }[]): number {
  const ranked = rows.filter((r) => r.rank !== null && r.mean !== null);
  for (let digits = 1; digits < 3; digits++) {
    const readAlike = ranked.some(
      (r, i) =>
        i > 0 &&
        r.rank !== ranked[i - 1].rank &&
        formatPercent(r.mean, digits) === formatPercent(ranked[i - 1].mean, digits),
    );
    if (!readAlike) return digits;
  }
  return 3;
}

/** "1 run" / "3 runs". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}
