import { expect, type Page } from "@playwright/test";
import { DEMO_PAPER } from "./users";

/**
 * The demo paper's own leaderboard (`?split=…&paper=…`): the seeded agents' complete runs, whatever
 * other specs grade meanwhile. The whole split's board is not the demo's to count: a spec running
 * beside this one that grades a paper of its own adds that paper to the split, and the demo's runs,
 * which do not grade it, become incomplete there.
 *
 * The split is the one listing the studio's papers: `studio` beside PaperBench's data, else `all`.
 */
export async function demoBoardQuery(page: Page): Promise<string> {
  const res = await page.request.get("/api/leaderboard");
  expect(res.status()).toBe(200);
  const { splits } = (await res.json()) as { splits: { name: string }[] };
  const split = splits.some((s) => s.name === "studio") ? "studio" : "all";
  return `?split=${split}&paper=${DEMO_PAPER.id}`;
}
