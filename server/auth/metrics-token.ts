import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { readServerEnv } from "@/lib/env";

/**
 * Whether `token` is the scrape token `METRICS_TOKEN` (unset: no token is). Both sides are hashed
 * first, so the comparison takes the same time whatever the length or the first differing byte.
 */
export function isMetricsScrapeToken(token: string): boolean {
  const expected = readServerEnv().METRICS_TOKEN;
  if (expected === undefined) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(expected), digest(token));
}
