import { demoBoardQuery } from "./support/demo-board";
import { expect, test } from "./support/fixtures";
import { DEMO_PAPER, GRADER } from "./support/users";

// The seed (server/seed/seed-reviews.ts) assigns the demo grader this run blind.
const SEEDED_BLIND = { agent: "Demo IterativeAgent · o3-mini", run: 1 };

test.describe("leaderboard while a blind review is open", () => {
  test("a visitor sees the run as pending review, with the note that says why, and the agent's score over its other runs", async ({
    page,
  }) => {
    const query = await demoBoardQuery(page);
    await page.goto(`/leaderboard${query}`);
    const row = page.locator(`[data-testid="leaderboard-row"][data-agent="${SEEDED_BLIND.agent}"]`);
    await expect(row).toContainText("+1 left out");
    await expect(row.getByTestId("agent-score")).toHaveText(/^\d+\.\d{1,3}% ± \d+\.\d{1,3}$/);
    await expect(page.getByTestId("pending-review-note").first()).toContainText("reviewing a run's grading blind");
    await row.getByTestId("toggle-breakdown").click();
    const breakdown = page.getByTestId("agent-breakdown");
    await expect(breakdown.getByTestId("excluded-runs")).toContainText(`run ${SEEDED_BLIND.run}: pending review`);
    const paper = breakdown.locator(`[data-testid="per-paper-row"][data-paper="${DEMO_PAPER.id}"]`);
    await expect(paper.getByTestId("per-paper-pending")).toHaveText("+1 pending review");
    await expect(breakdown.getByTestId("pending-review-note")).toBeVisible();

    const board = await (await page.request.get(`/api/leaderboard${query}`)).json();
    const agent = board.agents.find((a: { name: string }) => a.name === SEEDED_BLIND.agent);
    expect(agent.runs.map((r: { run: number }) => r.run)).not.toContain(SEEDED_BLIND.run);
  });

  test("the blind grader's drill-down names the run without its score", async ({ asUser }) => {
    const page = await asUser(GRADER);
    await page.goto(`/leaderboard${await demoBoardQuery(page)}`);
    const row = page.locator(`[data-testid="leaderboard-row"][data-agent="${SEEDED_BLIND.agent}"]`);
    await row.getByTestId("toggle-breakdown").click();
    const link = page.getByTestId("agent-breakdown").getByTestId("grading-link");
    await expect(link).toHaveCount(1);
    await expect(link).toHaveText(`run ${SEEDED_BLIND.run} · score hidden · pending review`);
  });
});
