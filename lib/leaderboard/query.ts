import { z } from "zod";
import { variantSchema } from "@/lib/grading/variant";

const name = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[\w.-]+$/, `must be a ${what} (letters, digits, _ . -)`)
    .optional();

/**
 * The leaderboard's query string: `split` (a name; default chosen by the server), `variant`, and
 * `paper` for the per-paper board (the split stays: it is where the board was opened from).
 */
export const leaderboardQuerySchema = z.object({
  split: name("split name"),
  variant: variantSchema.default("full"),
  paper: name("paper id"),
});
export type LeaderboardQueryParams = z.output<typeof leaderboardQuerySchema>;

type SearchParams = URLSearchParams | Record<string, string | string[] | undefined>;

function paramOf(params: SearchParams, key: string): string | undefined {
  const value = params instanceof URLSearchParams ? params.get(key) : params[key];
  const one = Array.isArray(value) ? value[0] : value;
  return one === null || one === undefined || one === "" ? undefined : one;
}

/** Reads `split`, `variant` and `paper` from search params (empty values count as absent). */
export function parseLeaderboardParams(params: SearchParams): LeaderboardQueryParams {
  return leaderboardQuerySchema.parse({
    split: paramOf(params, "split"),
    variant: paramOf(params, "variant"),
    paper: paramOf(params, "paper"),
  });
}

/**
 * The agents whose breakdown is open (`open=<id>,<id>`): page state only, kept in the URL so that
 * back, forward and reload restore it. Ids it cannot be are dropped, not refused.
 */
export function parseOpenAgents(params: SearchParams): string[] {
  const ids = (paramOf(params, "open") ?? "").split(",").filter((id) => z.uuid().safeParse(id).success);
  return [...new Set(ids)];
}

/** The board's URL: split, variant, the per-paper board's paper and the open breakdowns. */
export function leaderboardHref(
  pathname: string,
  state: { split: string; variant: string; paper: string | null; open: readonly string[] },
): string {
  const params = new URLSearchParams({ split: state.split, variant: state.variant });
  if (state.paper) params.set("paper", state.paper);
  if (state.open.length > 0) params.set("open", state.open.join(","));
  return `${pathname}?${params}`;
}
