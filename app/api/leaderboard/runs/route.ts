import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { getLeaderboardAgentGradings, getLeaderboardGradingAccess } from "@/server/leaderboard/drill-down";
import { LEADERBOARD_MAX_STALE_MS } from "@/lib/leaderboard/freshness";
import { AppError } from "@/lib/errors";
import { parseLeaderboardParams } from "@/lib/leaderboard/query";

/**
 * The gradings behind one agent's leaderboard row (`?agent=<id>&split=&variant=&paper=`), for signed-in
 * members: those they may open (staff: all; authors: their papers'; graders: those assigned to
 * them), as grading ids that lead to the review page.
 */
export const GET = apiRoute({}, async ({ req, store, user }) => {
  const params = req.nextUrl.searchParams;
  const agent = z.uuid().safeParse(params.get("agent"));
  if (!agent.success)
    throw new AppError("bad_request", "agent: must be an agent id", [
      { path: "agent", message: "must be an agent id" },
    ]);
  const { split, variant, paper } = parseLeaderboardParams(params);
  const access = await getLeaderboardGradingAccess(store, user);
  return getLeaderboardAgentGradings(store, {
    split,
    variant,
    paper,
    agentId: agent.data,
    access,
    audience: "members",
    maxStaleMs: LEADERBOARD_MAX_STALE_MS,
  });
});
