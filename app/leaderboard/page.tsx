import type { Metadata } from "next";
import { ZodError } from "zod";
import { LeaderboardBoard } from "@/components/leaderboard/leaderboard-board";
import { getCurrentUser } from "@/server/auth/session";
import { getLeaderboard } from "@/server/leaderboard/leaderboard";
import { LEADERBOARD_MAX_STALE_MS } from "@/lib/leaderboard/freshness";
import { getStore } from "@/server/store";
import { AppError } from "@/lib/errors";
import { pageViewOf } from "@/lib/leaderboard/page-view";
import { parseLeaderboardParams, parseOpenAgents, type LeaderboardQueryParams } from "@/lib/leaderboard/query";

export const metadata: Metadata = { title: "Leaderboard" };

/**
 * The public leaderboard: anyone, signed in or not, sees scores per agent for a split and variant,
 * or every agent's runs on one paper (`paper`). Signed-in members can open the gradings of their
 * papers behind a row. A bad query shows what was wrong above the default board (or, for an
 * unknown paper, the board of its split).
 */
export default async function LeaderboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await searchParams;
  let params: LeaderboardQueryParams;
  let problem: string | null = null;
  try {
    params = parseLeaderboardParams(raw);
  } catch (err) {
    if (!(err instanceof ZodError)) throw err;
    problem = `${err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}. Showing the default split instead.`;
    params = { variant: "full" };
  }
  const [store, user] = await Promise.all([getStore(), getCurrentUser()]);
  // Placeholder judges' gradings (Dummy, Random): members see them marked and unranked; the public never does.
  const audience = user ? "members" : "public";
  let view;
  try {
    view = await getLeaderboard(store, { ...params, audience, maxStaleMs: LEADERBOARD_MAX_STALE_MS });
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "bad_request") throw err;
    const badSplit = err.details.some((d) => (d as { path?: unknown }).path === "split");
    const split = badSplit ? undefined : params.split;
    problem = `${err.message}. Showing ${split ? `the board of ${split}` : "the default split"} instead.`;
    view = await getLeaderboard(store, {
      split,
      variant: params.variant,
      audience,
      maxStaleMs: LEADERBOARD_MAX_STALE_MS,
    });
  }
  // The breakdowns of the rows open in the URL only: the others load when opened (see pageViewOf).
  const open = new Set(parseOpenAgents(raw));
  return <LeaderboardBoard view={pageViewOf(view, open)} signedIn={user !== null} problem={problem} />;
}
