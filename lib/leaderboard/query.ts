import { z } from "zod";
import { variantSchema } from "@/lib/grading/variant";

/** The leaderboard's query string: `split` (a name; default chosen by the server) and `variant`. */
export const leaderboardQuerySchema = z.object({
  split: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[\w.-]+$/, "must be a split name (letters, digits, _ . -)")
    .optional(),
  variant: variantSchema.default("full"),
});
export type LeaderboardQueryParams = z.output<typeof leaderboardQuerySchema>;

/** Reads `split` and `variant` from search params (empty values count as absent). */
export function parseLeaderboardParams(params: URLSearchParams | Record<string, string | string[] | undefined>): LeaderboardQueryParams {
  const get = (key: string): string | undefined => {
    const value = params instanceof URLSearchParams ? params.get(key) : params[key];
    const one = Array.isArray(value) ? value[0] : value;
    return one === null || one === undefined || one === "" ? undefined : one;
  };
  return leaderboardQuerySchema.parse({ split: get("split"), variant: get("variant") });
}
