/**
 * The board as the leaderboard page first sends it. Each row's breakdown (every run's score, every
 * paper's mean) is most of the board's bytes (a fifty-agent board of twenty papers: 1,000 per-paper
 * entries) and is seen only when a row is opened, yet the page would serialise it into every
 * answer twice (HTML and React's payload). So the page sends the breakdown of the rows open in its
 * URL only; a row opened later loads it from GET /api/leaderboard (the same board, cached there).
 */
import type { LeaderboardAgentRow, LeaderboardView } from "./types";

/** What a row's breakdown adds to the row: sent only for open rows. */
export type LeaderboardRowDetail = Pick<LeaderboardAgentRow, "runs" | "perPaper">;

/** A row as the page sends it: its breakdown only when `detail` is there. */
export type LeaderboardRowSummary = Omit<LeaderboardAgentRow, "runs" | "perPaper"> & {
  /** Some paper has runs under an open blind review (what the row's breakdown would say). */
  hasPendingPapers: boolean;
  detail: LeaderboardRowDetail | null;
};

export interface LeaderboardPageView extends Omit<LeaderboardView, "agents"> {
  agents: LeaderboardRowSummary[];
}

/** The page's board: `view` with the breakdown of the agents in `open` only. */
export function pageViewOf(view: LeaderboardView, open: ReadonlySet<string>): LeaderboardPageView {
  return {
    ...view,
    agents: view.agents.map(({ runs, perPaper, ...row }) => ({
      ...row,
      hasPendingPapers: perPaper.some((p) => p.pendingRuns > 0),
      detail: open.has(row.agentId) ? { runs, perPaper } : null,
    })),
  };
}

/** The row of the full board that a summary row stands for (an agent may also have a placeholder judge's row). */
export function sameRow(
  a: Pick<LeaderboardAgentRow, "agentId" | "method">,
  b: Pick<LeaderboardAgentRow, "agentId" | "method">,
): boolean {
  return a.agentId === b.agentId && (a.method.kind === "placeholder") === (b.method.kind === "placeholder");
}
