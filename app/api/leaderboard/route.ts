import { apiRoute } from "@/server/http/route";
import { getLeaderboardJson } from "@/server/leaderboard/leaderboard";
import { LEADERBOARD_MAX_STALE_MS } from "@/lib/leaderboard/freshness";
import { parseLeaderboardParams } from "@/lib/leaderboard/query";

/**
 * The public leaderboard (`?split=<name>&variant=full|code-dev`, and `&paper=<id>` for the per-paper
 * board): per agent the mean over complete runs ± standard error, runs left out and why, the
 * per-paper breakdown, judge models and the human-reviewed flag; after the ranked agents, those
 * without a complete run with their coverage, and how each row's gradings were made (`method`).
 * Signed out, no placeholder judge's grading counts anywhere; a signed-in member also sees those
 * rows, unranked and marked. Anyone may call it, signed in or not: scores only, never rubric text. The
 * body is serialized once per change of the gradings (a change shows within
 * `LEADERBOARD_MAX_STALE_MS`); a client that sends its ETag back gets a 304.
 */
export const GET = apiRoute({ public: true }, async ({ req, store, user }) => {
  const { split, variant, paper } = parseLeaderboardParams(req.nextUrl.searchParams);
  // Placeholder judges' gradings (Dummy, Random) are for signed-in members only, marked; never public.
  const audience = user ? "members" : "public";
  const { body, etag } = await getLeaderboardJson(store, {
    split,
    variant,
    paper,
    audience,
    maxStaleMs: LEADERBOARD_MAX_STALE_MS,
  });
  // The body differs by who asks: a shared cache must not hand the members' board to the public.
  const headers = { etag, "cache-control": "no-cache", vary: "cookie, authorization" };
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "content-type": "application/json" } });
});
