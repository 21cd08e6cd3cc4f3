import { z } from "zod";
import { getLeaderboardAgentGradings, getLeaderboardGradingAccess, LEADERBOARD_MAX_STALE_MS } from "@/db/queries/leaderboard";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";
import { parseLeaderboardParams } from "@/lib/leaderboard/query";

/**
 * The gradings behind one agent's leaderboard row (`?agent=<id>&split=&variant=`), for signed-in
 * members: those they may open (staff: all; authors: their papers'; graders: those assigned to
 * them), as grading ids that lead to the review page.
 */
export const GET = apiRoute({}, async ({ req, db, user }) => {
  const params = req.nextUrl.searchParams;
  const agent = z.uuid().safeParse(params.get("agent"));
  if (!agent.success) throw new AppError("bad_request", "agent: must be an agent id", [{ path: "agent", message: "must be an agent id" }]);
  const { split, variant } = parseLeaderboardParams(params);
  const access = await getLeaderboardGradingAccess(db, user);
  return getLeaderboardAgentGradings(db, { split, variant, agentId: agent.data, access, maxStaleMs: LEADERBOARD_MAX_STALE_MS });
});
