/**
 * Which splits the leaderboard offers, from data rather than code:
 *
 * - every `splits/<name>.txt` of the PaperBench data (`PAPERBENCH_DATA_DIR`, default
 *   `../shared/paperbench` from the working directory), read by `server/papers/data-splits.ts`;
 * - `all`: the data's own `all` when it has one, else every paper graded in the studio;
 * - `studio`: every paper graded in the studio, offered beside the data's `all` when the studio
 *   grades papers outside it (the embedded demo's paper, papers of your own).
 *
 * Splits without papers are left out. Order: `all`, `studio`, then the data's in name order.
 * Pure: the server reads the data folder (`readDataSplits`, at most every 30 seconds).
 */

export interface SplitInfo {
  name: string;
  paperIds: string[];
  /** `data`: a file of the PaperBench data; `studio`: every paper graded in the studio. */
  source: "data" | "studio";
}

/** The splits offered, given the data's splits and the papers graded in the studio (any variant). */
export function resolveSplits(
  dataSplits: Readonly<Record<string, readonly string[]>>,
  gradedPaperIds: readonly string[],
): SplitInfo[] {
  const graded = [...new Set(gradedPaperIds)].sort();
  const out: SplitInfo[] = [];
  const dataAll = dataSplits.all;
  if (dataAll && dataAll.length > 0) {
    out.push({ name: "all", paperIds: [...dataAll], source: "data" });
    const inAll = new Set(dataAll);
    if (graded.some((p) => !inAll.has(p))) out.push({ name: "studio", paperIds: graded, source: "studio" });
  } else if (graded.length > 0) {
    out.push({ name: "all", paperIds: graded, source: "studio" });
  }
  for (const name of Object.keys(dataSplits).sort()) {
    if (name === "all" || name === "studio" || dataSplits[name].length === 0) continue;
    out.push({ name, paperIds: [...dataSplits[name]], source: "data" });
  }
  return out;
}

/** What the default split is chosen by, per split of the board. */
export interface SplitTally {
  name: string;
  /** Complete runs over every agent (runs that count in a mean). */
  completeRuns: number;
  /** Agents listed on the split's board, ranked or not. */
  agents: number;
}

/**
 * The split a board opens on: the one with the most complete runs; among equals, the first in the
 * offered order (`resolveSplits`). With no complete run anywhere, the first split that lists an
 * agent, so the board is not blank while gradings exist; else the first split. Null: no split.
 */
export function chooseDefaultSplit(tallies: readonly SplitTally[]): string | null {
  let best: SplitTally | null = null;
  for (const t of tallies) if (t.completeRuns > (best?.completeRuns ?? 0)) best = t;
  return (best ?? tallies.find((t) => t.agents > 0) ?? tallies[0])?.name ?? null;
}
