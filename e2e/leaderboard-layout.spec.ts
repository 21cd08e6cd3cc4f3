/**
 * What a newcomer misread on the demo leaderboard (issue 21): two agents at "60.2%" ranked 1 and 2,
 * the split picker and the chart's agent names cut off, each agent's name repeated under itself, and
 * the jargon "as graded". Read-only on the demo paper's board.
 */
import type { Page } from "@playwright/test";
import { AS_GRADED_BASIS } from "../lib/leaderboard/types";
import { demoBoardQuery } from "./support/demo-board";
import { expect, test } from "./support/fixtures";
import { screenshots } from "./support/screenshots";

/** Every ranked row's rank and the mean it shows ("60.24%" of "60.24% ± 2.38"). */
async function rankedRows(page: Page): Promise<{ rank: string; mean: string }[]> {
  return page
    .getByTestId("leaderboard-table")
    .getByTestId("leaderboard-row")
    .evaluateAll((rows) =>
      rows.map((row) => ({
        rank: row.querySelector('[data-testid="agent-rank"]')!.textContent!.trim(),
        mean: row.querySelector('[data-testid="agent-score"]')!.textContent!.split("±")[0].trim(),
      })),
    );
}

/** Whether the select shows its chosen option whole (the text, its padding and the arrow fit). */
async function showsWholeOption(page: Page, testId: string): Promise<boolean> {
  return page.getByTestId(testId).evaluate((el) => {
    const select = el as HTMLSelectElement;
    const ctx = document.createElement("canvas").getContext("2d")!;
    const style = getComputedStyle(select);
    ctx.font = `${style.fontSize} ${style.fontFamily}`;
    const text = ctx.measureText(select.selectedOptions[0].text).width;
    const chrome = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight) + 16; // the arrow
    return text + chrome <= select.clientWidth + 1;
  });
}

test("the demo board: a different rank reads a different score, names and pickers show whole, plain words", async ({
  page,
}, testInfo) => {
  await page.goto(`/leaderboard${await demoBoardQuery(page)}`);
  await expect(page.getByTestId("leaderboard-table").getByTestId("leaderboard-row").first()).toBeVisible();

  // Ranks: the same shown score shares a rank; a different rank never reads the same score.
  const rows = await rankedRows(page);
  expect(rows.length).toBeGreaterThan(1);
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].rank === rows[i - 1].rank) expect(rows[i].mean).toBe(rows[i - 1].mean);
    else expect(rows[i].mean, `rank ${rows[i].rank} below rank ${rows[i - 1].rank}`).not.toBe(rows[i - 1].mean);
  }

  for (const row of await page.getByTestId("leaderboard-table").getByTestId("leaderboard-row").all()) {
    const name = (await row.getByTestId("agent-name").textContent())!;
    // The name once: no line under it that repeats what it says.
    for (const detail of await row.getByTestId("agent-detail").allTextContents()) {
      for (const part of detail.split(" · ")) expect(name).not.toContain(part);
    }
    // What the number is, in plain words.
    await expect(row.getByTestId("row-policy")).toHaveText(AS_GRADED_BASIS.label);
  }

  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    await page.setViewportSize(size);
    expect(await showsWholeOption(page, "split-select"), `split picker at ${size.width} px`).toBe(true);
    // Each agent's whole name on the chart's axis, inside the figure.
    const chart = page.getByTestId("leaderboard-chart");
    const names = await page.getByTestId("leaderboard-table").getByTestId("agent-name").allTextContents();
    const labels = chart.getByTestId("chart-agent-label");
    await expect(labels).toHaveCount(names.length);
    const figure = (await chart.boundingBox())!;
    // The whiskers are drawn (an agent of three runs has a standard error): not left at scale 0.
    const whisker = await chart
      .locator(".recharts-errorBar")
      .first()
      .locator("line")
      .evaluateAll((lines) => Math.max(...lines.map((l) => l.getBoundingClientRect().width)));
    expect(whisker, "the first whisker's length").toBeGreaterThan(2);
    for (const [i, label] of (await labels.all()).entries()) {
      const lines = await label.locator("tspan").allTextContents();
      expect(lines.join(" · ")).toBe(names[i]);
      const box = (await label.boundingBox())!;
      expect(box.x, `${names[i]} at ${size.width} px`).toBeGreaterThanOrEqual(figure.x);
    }
  }
  await screenshots(page, testInfo, "leaderboard-layout");
});
