import "server-only";
import type { Store } from "@/db/client";
import { listPaperRolesForUser } from "@/db/queries/leaderboard";
import { AppError } from "@/lib/errors";
import type { LeaderboardAgentGradings } from "@/lib/leaderboard/types";
import { listAssignedGradings } from "@/server/gradings/assigned-gradings";
import { loadBoard, type LeaderboardQuery } from "./leaderboard";

/**
 * What a signed-in user may open from the leaderboard: every grading (staff), the gradings of the
 * papers they author, and on papers where they grade, the gradings assigned to them (the review
 * page's own rule, `requireGradingAccess`); of those, `hiddenScores` are the gradings whose root
 * score their assignment hides from them (`maySeeAggregate`).
 */
export type LeaderboardGradingAccess =
  | { all: true }
  | {
      all: false;
      papers: ReadonlySet<string>;
      gradings: ReadonlySet<string>;
      gradedPapers: ReadonlySet<string>;
      hiddenScores: ReadonlySet<string>;
    };

/** The drill-down access of a user (see `LeaderboardGradingAccess`). */
export async function getLeaderboardGradingAccess(
  store: Store,
  user: { id: string; isStaff: boolean },
): Promise<LeaderboardGradingAccess> {
  if (user.isStaff) return { all: true };
  const roles = await listPaperRolesForUser(store.db, user.id);
  const assigned = await listAssignedGradings(store, user.id);
  return {
    all: false,
    papers: new Set([...roles].filter(([, role]) => role === "author").map(([paperId]) => paperId)),
    gradedPapers: new Set([...roles].filter(([, role]) => role === "grader").map(([paperId]) => paperId)),
    gradings: new Set(assigned.keys()),
    hiddenScores: new Set([...assigned].filter(([, a]) => a.scoreHidden).map(([gradingId]) => gradingId)),
  };
}

/**
 * The gradings behind one agent's row that the user may open (ids, never their content: the
 * review page checks access again), per paper of the split, each with its score unless the user's
 * assignment hides a verdict of it from them. A paper the user is not a member of is counted in
 * `hiddenPapers` and not listed.
 */
export async function getLeaderboardAgentGradings(
  store: Store,
  query: LeaderboardQuery & { agentId: string; access: LeaderboardGradingAccess },
): Promise<LeaderboardAgentGradings> {
  const {
    board: { view },
    data,
  } = await loadBoard(store.db, query);
  if (!data.agents.has(query.agentId)) throw new AppError("not_found", "No such agent");
  const access = query.access;
  const byPaper = new Map<string, LeaderboardAgentGradings["papers"][number]["runs"]>();
  // A member may open a placeholder judge's grading too (its row is apart on their board).
  for (const r of [...data.rows, ...(data.placeholderData?.rows ?? [])]) {
    if (r.agentId !== query.agentId) continue;
    const author = access.all || access.papers.has(r.paperId);
    // A grader: a grading assigned to them on a paper they still grade (the review page's rule).
    if (!author && !(access.gradings.has(r.gradingId) && access.gradedPapers.has(r.paperId))) continue;
    let list = byPaper.get(r.paperId);
    if (!list) byPaper.set(r.paperId, (list = []));
    list.push({
      run: r.runIndex,
      gradingId: r.gradingId,
      kind: r.kind,
      score: author || !access.hiddenScores.has(r.gradingId) ? r.score : null,
      reviewed: r.reviewed,
      pendingReview: data.pendingReview.has(r.gradingId),
    });
  }
  const papers: LeaderboardAgentGradings["papers"] = [];
  let hiddenPapers = 0;
  for (const { id } of view.papers) {
    if (!access.all && !access.papers.has(id) && !access.gradedPapers.has(id)) {
      hiddenPapers++;
      continue;
    }
    papers.push({ paperId: id, runs: (byPaper.get(id) ?? []).sort((a, b) => a.run - b.run) });
  }
  return { agentId: query.agentId, split: view.split, variant: query.variant, papers, hiddenPapers };
}
