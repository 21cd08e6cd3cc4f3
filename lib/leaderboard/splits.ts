/**
 * Which splits the leaderboard offers, from data rather than code:
 *
 * - every `splits/<name>.txt` of the PaperBench data (`PAPERBENCH_DATA_DIR`, default
 *   `../shared/paperbench` from the working directory), read by `server/leaderboard/data-splits.ts`;
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
export function resolveSplits(dataSplits: Readonly<Record<string, readonly string[]>>, gradedPaperIds: readonly string[]): SplitInfo[] {
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
