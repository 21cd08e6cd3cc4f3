import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { demoBoardQuery } from "./support/demo-board";
import { expect, test } from "./support/fixtures";
import { AUTHOR, DEMO_PAPER, STAFF } from "./support/users";

/** The demo seed's agents (server/seed/seed-gradings.ts): four agents, three judged runs each on the demo paper. */
const DEMO_AGENT_COUNT = 4;
const DEMO_RUNS = 3;
const JUDGE_MODEL = "o3-mini-2025-01-31";

/** A real PaperBench grading: pinn's rubric and its human grading (the JudgeEval reference). */
const PAPERBENCH = process.env.PAPERBENCH_DATA_DIR || path.resolve("..", "shared", "paperbench");
const PINN = "pinn";

/** /leaderboard */
class LeaderboardPage {
  constructor(readonly page: Page) {}

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/leaderboard${query}`);
    await expect(this.page.getByTestId("leaderboard")).toBeVisible();
  }

  get rows(): Locator {
    return this.page.getByTestId("leaderboard-row");
  }

  get splitSelect(): Locator {
    return this.page.getByTestId("split-select");
  }

  get currentSplit(): Locator {
    return this.page.getByTestId("current-split");
  }

  get currentVariant(): Locator {
    return this.page.getByTestId("current-variant");
  }

  /** Opens the first row's breakdown and returns it. */
  async openFirstBreakdown(): Promise<Locator> {
    await this.rows.first().getByTestId("toggle-breakdown").click();
    const breakdown = this.page.getByTestId("agent-breakdown");
    await expect(breakdown).toBeVisible();
    return breakdown;
  }
}

test.describe("leaderboard", () => {
  test("a signed-out visitor sees the demo leaderboard, switches variant and split, and opens a breakdown", async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await page.goto("/");
    await page.getByRole("link", { name: "Leaderboard" }).click();
    await expect(page).toHaveURL(/\/leaderboard$/);
    await expect(page.getByTestId("leaderboard")).toBeVisible();
    await expect(board.currentVariant).toHaveText("full");

    // The demo paper's board: its agents' complete runs (the whole split also holds the papers
    // other specs grade meanwhile, which the demo's runs do not cover).
    const query = await demoBoardQuery(page);
    await board.goto(query);
    await expect(board.rows).toHaveCount(DEMO_AGENT_COUNT);
    for (const row of await board.rows.all()) {
      await expect(row.getByTestId("agent-score")).toHaveText(/^\d+\.\d{1,3}% ± \d+\.\d{1,3}$/);
      await expect(row).toContainText(JUDGE_MODEL);
    }
    // Ranked: scores go down the table.
    const scores = (await page.getByTestId("agent-score").allTextContents()).map((t) => Number.parseFloat(t));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    await expect(page.getByTestId("leaderboard-chart")).toBeVisible();
    await expect(page.getByTestId("leaderboard-chart").locator(".recharts-errorBar").first()).toBeAttached();

    // The per-paper breakdown: mean ± SE over the three runs, no gradings for the public.
    const breakdown = await board.openFirstBreakdown();
    const paperRow = breakdown.locator(`[data-testid="per-paper-row"][data-paper="${DEMO_PAPER.id}"]`);
    await expect(paperRow).toContainText(DEMO_PAPER.title);
    await expect(paperRow).toContainText(/\d+\.\d% ± \d+\.\d/);
    await expect(paperRow.locator("td").nth(2)).toHaveText(String(DEMO_RUNS));
    await expect(breakdown.getByTestId("grading-link")).toHaveCount(0);
    await expect(page.getByText(/rubrics and the judge's explanations are confidential/)).toBeVisible();

    // Code-Dev: the demo has no Code-Dev runs.
    const split = new URLSearchParams(query).get("split")!;
    await page.getByTestId("variant-code-dev").click();
    await expect(page).toHaveURL(/variant=code-dev/);
    await expect(board.currentVariant).toHaveText("Code-Dev");
    await expect(page.getByTestId("leaderboard-empty")).toBeVisible();
    await page.getByTestId("variant-full").click();
    await expect(board.rows).toHaveCount(DEMO_AGENT_COUNT);

    // Another split, when the data has more than one: picked on the split's board.
    await board.goto(`?split=${split}`);
    await expect(board.currentSplit).toHaveText(split);
    const options = await board.splitSelect
      .locator("option")
      .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    const other = options.find((o) => o !== split);
    if (other) {
      await board.splitSelect.selectOption(other);
      await expect(page).toHaveURL(new RegExp(`split=${other}`));
      await expect(board.currentSplit).toHaveText(other);
      // The demo paper is in no PaperBench split: nobody graded those papers here.
      await expect(page.getByTestId("leaderboard-empty")).toBeVisible();
    }

    // The API says the same, and nothing of the rubric.
    const api = await page.request.get(`/api/leaderboard${query}`);
    expect(api.status()).toBe(200);
    const body = await api.text();
    expect(JSON.parse(body).agents).toHaveLength(DEMO_AGENT_COUNT);
    expect(body).not.toMatch(/requirement|explanation|synthetic demo verdict|gradingId/i);
  });

  test("signed out: 401 on gradings, explanations, rubric text and JudgeEval; review pages are closed", async ({
    page,
  }) => {
    const someId = "00000000-0000-4000-8000-000000000000";
    for (const url of [
      `/api/gradings/${someId}`,
      `/api/gradings/${someId}/export`,
      `/api/papers/${DEMO_PAPER.id}/gradings`,
      `/api/papers/${DEMO_PAPER.id}/rubric`,
      `/api/leaderboard/runs?agent=${someId}`,
      "/api/judge-eval",
      `/api/judge-eval/results?paper=${DEMO_PAPER.id}`,
    ]) {
      const res = await page.request.get(url);
      expect(res.status(), url).toBe(401);
      expect(await res.text()).not.toMatch(/synthetic demo/);
    }
    for (const path of [`/gradings/${someId}`, "/reviews", "/judge-eval", `/papers/${DEMO_PAPER.id}/judge-eval`]) {
      const res = await page.goto(path);
      // Sent to sign in, or not found: never the page.
      if (!/\/signin/.test(page.url())) expect(res?.status(), path).toBe(404);
      await expect(page.getByText(/synthetic demo/)).toHaveCount(0);
    }
  });

  test("a member drills down from the leaderboard to a grading of their paper", async ({ asUser }) => {
    const page = await asUser(AUTHOR);
    const board = new LeaderboardPage(page);
    await board.goto(await demoBoardQuery(page));
    const breakdown = await board.openFirstBreakdown();
    const links = breakdown.getByTestId("grading-link");
    await expect(links).toHaveCount(DEMO_RUNS);
    await expect(links.first()).toHaveText(/^run 1 · \d+\.\d%/);
    const href = await links.first().getAttribute("href");
    expect(href).toMatch(/^\/gradings\/[0-9a-f-]{36}$/);
    const gradingId = href!.split("/").pop()!;
    const detail = await page.request.get(`/api/gradings/${gradingId}`);
    expect(detail.status()).toBe(200);
    expect((await detail.json()).grading).toMatchObject({ id: gradingId, paperId: DEMO_PAPER.id, runIndex: 1 });
    await links.first().click();
    await expect(page).toHaveURL(new RegExp(`/gradings/${gradingId}`));
  });

  test("staff run JudgeEval over the demo's human grading and download results.json", async ({ asUser }) => {
    const page = await asUser(STAFF);
    await page.goto("/");
    await page.getByRole("link", { name: "JudgeEval" }).click();
    await expect(page).toHaveURL(/\/judge-eval$/);
    // The seed's human grading of the first agent's first run (and any review that covered a whole grading).
    await expect(page.getByTestId("judge-eval-candidate").first()).toBeVisible();
    const candidates = await page.getByTestId("judge-eval-candidate").count();
    const report = page.getByTestId("judge-eval-report");
    await expect(report).toBeVisible();
    await expect(report.locator('[data-metric="accuracy"]')).toHaveText(/^0\.\d{3}$|^1\.000$/);
    await expect(page.getByTestId("judge-eval-confusion")).toBeVisible();
    await expect(page.getByTestId("judge-eval-disagreement").first()).toContainText("of the score");
    const download = page.waitForEvent("download");
    await page.getByTestId("judge-eval-download").click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`judge-eval-${DEMO_PAPER.id}-results.json`);
    const json = JSON.parse(fs.readFileSync((await file.path())!, "utf8"));
    expect(Object.keys(json)).toEqual([
      "judge_type",
      "code_only",
      "judge_kwargs",
      "results",
      "aggregate_metrics",
      "aggregate_token_usage",
      "timestamp",
    ]);
    expect(json.results).toHaveLength(candidates);
    expect(json.judge_kwargs).toEqual({ model: JUDGE_MODEL });
  });
});

// Runs after the demo board's tests: the import below leaves the demo's runs incomplete on every
// split with pinn or `studio` (the demo paper and pinn).
test.describe("leaderboard with an incomplete run", () => {
  test("one real grading: the agent is listed unranked with its coverage, has a per-paper board, and the URL keeps the state", async ({
    page,
    asUser,
  }) => {
    // pinn's rubric and grading are large (1,963 leaves): importing them takes a while.
    test.setTimeout(120_000);
    const staff = await asUser(STAFF);
    const created = await staff.request.post("/api/papers", { data: { id: PINN, title: "PINN: the pinn paper" } });
    // Another spec may have created pinn already (then with its real rubric).
    expect([201, 409]).toContain(created.status());
    if (created.status() === 201) {
      const rubric = await staff.request.put(`/api/papers/${PINN}/rubric`, {
        headers: { "content-type": "application/json" },
        data: fs.readFileSync(path.join(PAPERBENCH, "papers", PINN, "rubric.json")),
      });
      expect(rubric.status()).toBe(200);
    }
    const agent = `E2E incomplete agent ${Date.now()}`;
    const imported = await staff.request.post(`/api/papers/${PINN}/gradings`, {
      data: {
        file: fs.readFileSync(path.join(PAPERBENCH, "judge_eval", PINN, "expected_result.json"), "utf8"),
        agent,
        run: 1,
      },
    });
    expect(imported.status(), await imported.text()).toBe(201);
    const { score, agentId } = (await imported.json()) as { score: number; agentId: string };
    const percent = `${(score * 100).toFixed(1)}%`;

    // The default board is not blank: the agent is listed below the ranking, with its coverage.
    const board = new LeaderboardPage(page);
    await board.goto();
    const split = (await board.currentSplit.textContent())!;
    const api = await (await page.request.get(`/api/leaderboard?split=${split}`)).json();
    expect(api.papers.map((p: { id: string }) => p.id)).toContain(PINN);
    const papers = api.papers.length as number;
    const unranked = page.getByTestId("unranked-section");
    const row = unranked.locator(`[data-testid="leaderboard-row"][data-agent="${agent}"]`);
    await expect(row).toBeVisible();
    await expect(row).toHaveAttribute("data-ranked", "false");
    // At least the split's papers the API listed: specs running beside this one may grade papers of their own.
    const coverage = row.getByTestId("agent-coverage");
    await expect(coverage).toHaveText(/^1\/\d+ papers?$/);
    const shownPapers = Number(/^1\/(\d+)/.exec((await coverage.textContent())!)![1]);
    expect(shownPapers).toBeGreaterThanOrEqual(papers);
    await expect(row.getByTestId("agent-score")).toHaveText(`${percent}partial`);
    await expect(row.getByTestId("demo-badge")).toHaveCount(0);
    await expect(page.getByTestId("leaderboard-table").locator(`[data-agent="${agent}"]`)).toHaveCount(0);

    // Its breakdown: open in the URL, kept by a reload.
    await row.getByTestId("toggle-breakdown").click();
    await expect(page).toHaveURL(new RegExp(`open=${agentId}`));
    const breakdown = page.getByTestId("agent-breakdown");
    await expect(breakdown.getByTestId("coverage-note")).toContainText(/cover 1 of \d+ papers?/);
    // Opened after the page loaded: its per-paper table comes from the board's API.
    await expect(breakdown.locator(`[data-testid="per-paper-row"][data-paper="${PINN}"]`)).toBeVisible();
    await expect(breakdown.getByTestId("breakdown-loading")).toHaveCount(0);
    await page.reload();
    // Open in the URL: the page sends its breakdown with it.
    await expect(
      page.getByTestId("agent-breakdown").locator(`[data-testid="per-paper-row"][data-paper="${PINN}"]`),
    ).toBeVisible();
    await expect(board.currentSplit).toHaveText(split);

    // The per-paper board, from the breakdown: pinn alone, the agent ranked on it.
    await page.getByTestId("agent-breakdown").locator(`[data-testid="paper-board-link"]`, { hasText: PINN }).click();
    await expect(page).toHaveURL(new RegExp(`paper=${PINN}`));
    await expect(page.getByTestId("current-paper")).toHaveText(PINN);
    const paperRow = page
      .getByTestId("leaderboard-table")
      .locator(`[data-testid="leaderboard-row"][data-agent="${agent}"]`);
    await expect(paperRow.getByTestId("agent-score")).toHaveText(percent);
    await expect(paperRow.getByTestId("agent-rank")).toHaveText(/^\d+$/);
    await expect(page.getByTestId("paper-select")).toHaveValue(PINN);
    await page.reload();
    await expect(page.getByTestId("current-paper")).toHaveText(PINN);
    await expect(paperRow).toBeVisible();

    // Back: the split's board with the breakdown still open; forward: the paper's board again.
    await page.goBack();
    await expect(board.currentSplit).toHaveText(split);
    await expect(page.getByTestId("agent-breakdown")).toBeVisible();
    await page.goForward();
    await expect(page.getByTestId("current-paper")).toHaveText(PINN);
    await page.goBack();
    // Closing a breakdown is a step of its own in the history.
    await row.getByTestId("toggle-breakdown").click();
    await expect(page.getByTestId("agent-breakdown")).toHaveCount(0);
    await expect(page).not.toHaveURL(/open=/);
    await page.goBack();
    await expect(page.getByTestId("agent-breakdown")).toBeVisible();
    await page.goForward();
    await expect(page.getByTestId("agent-breakdown")).toHaveCount(0);

    // The demo's agents carry the demo badge on the boards they are on.
    await board.goto(`?split=${split}&paper=${DEMO_PAPER.id}`);
    await expect(page.getByTestId("leaderboard-row")).toHaveCount(DEMO_AGENT_COUNT);
    await expect(page.getByTestId("leaderboard-row").getByTestId("demo-badge")).toHaveCount(DEMO_AGENT_COUNT);
    await expect(page.getByTestId("leaderboard-demo-note")).toBeVisible();
  });
});
