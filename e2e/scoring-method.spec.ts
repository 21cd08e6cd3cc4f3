/**
 * How scores were made (issue 20 item 6): the evaluation dialog asks which judge, preselecting a
 * model judge in paperbench mode (a local stand-in for an OpenAI-compatible endpoint here) and
 * warning when a placeholder is chosen; an evaluation judged by it in paperbench mode under
 * PaperBench's default policies is "PaperBench method" on the public leaderboard, and one judged
 * by the Dummy judge is on the members' board only, marked "placeholder judge — not public".
 *
 * Its own agents, judge configuration and Code-Dev runs (no reproduction needed); the
 * configuration is archived at the end so no later evaluation picks it (specs that judge while it
 * exists name their judge). A paper of its own with the demo rubric, so the demo paper's boards stay
 * as other specs read them.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { startOpenAiTestServer, type OpenAiTestServer } from "../test/openai-test-server";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, newStudioContext, test } from "./support/fixtures";
import { REPO_ROOT } from "./support/files";
import { STAFF } from "./support/users";

test.describe.configure({ timeout: 180_000 });

const SUFFIX = crypto.randomBytes(3).toString("hex");
const PAPER = `e2e-scoring-${SUFFIX}`;

function demoArchive(testInfo: TestInfo): Buffer {
  const archive = testInfo.outputPath("demo.tar.gz");
  fs.mkdirSync(path.dirname(archive), { recursive: true });
  execFileSync("tar", ["-czf", archive, "-C", path.join(REPO_ROOT, "rubrics", "demo", "submission"), "."]);
  return fs.readFileSync(archive);
}

async function uploadRun(page: Page, evaluationId: string, agent: string, archive: Buffer): Promise<void> {
  const query = new URLSearchParams({
    agent,
    run: "1",
    variant: "code-dev",
    name: "run-1.tar.gz",
    evaluation: evaluationId,
  });
  const res = await page.request.post(`/api/papers/${PAPER}/submissions?${query}`, {
    headers: { "content-type": "application/octet-stream" },
    data: archive,
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function countedCell(page: Page, evaluationId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const matrix = (await (await page.request.get(`/api/evaluations/${evaluationId}/matrix`)).json()) as {
          cells: { stage: string }[];
        };
        return matrix.cells.map((c) => c.stage).join(",");
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe("counted");
}

let server: OpenAiTestServer | null = null;
test.afterAll(async () => {
  await server?.close();
});

test("the dialog asks which judge; paperbench mode is PaperBench method on the public board, the Dummy judge members-only and marked", async ({
  asUser,
  browser,
  baseURL,
}, testInfo) => {
  server = await startOpenAiTestServer();
  const page = await asUser(STAFF);
  await paperWithDemoRubric(page, PAPER);
  const configName = `E2E PaperBench judge ${SUFFIX}`;
  const made = await page.request.post("/api/judge/configs", {
    data: {
      name: configName,
      kind: "llm",
      model: "o3-mini",
      baseUrl: server.baseUrl,
      apiKeyEnv: null,
      reasoningEffort: "high",
      contextWindow: 200_000,
      maxConcurrency: 4,
      requestsPerMinute: null,
      tokensPerMinute: null,
      priceInputPerM: 0,
      priceCachedInputPerM: 0,
      priceOutputPerM: 0,
      mode: "paperbench",
      parseModel: "gpt-4o-2024-08-06",
    },
  });
  expect(made.status(), await made.text()).toBe(200);
  const configId = ((await made.json()) as { config: { id: string } }).config.id;
  const pbAgent = `E2E PB · ${SUFFIX}`; // the dialog names a new agent `scaffold · model`
  const dummyAgent = `E2E Dummy ${SUFFIX}`;
  try {
    // The dialog preselects a model judge in paperbench mode, and warns when a placeholder is chosen.
    await page.goto("/evaluations");
    await page.getByTestId("new-evaluation").click();
    const dialog = page.getByTestId("new-evaluation-dialog");
    const judge = dialog.getByTestId("evaluation-judge");
    await expect(judge.locator("option:checked")).toContainText("paperbench mode");
    await expect(dialog.getByTestId("evaluation-judge-note")).toContainText("PaperBench method");
    await expect(dialog.getByTestId("evaluation-judge-placeholder-warning")).toHaveCount(0);
    await judge.selectOption({ label: "Dummy judge — placeholder judge, not public" });
    await expect(dialog.getByTestId("evaluation-judge-placeholder-warning")).toContainText("never shows them");
    await page.screenshot({ path: testInfo.outputPath("dialog-placeholder.png") });
    await judge.selectOption(configId);
    await expect(dialog.getByTestId("evaluation-judge-placeholder-warning")).toHaveCount(0);

    await dialog.getByTestId("evaluation-name").fill(`E2E paperbench ${SUFFIX}`);
    await dialog.getByTestId("evaluation-agent-scaffold").fill("E2E PB");
    await dialog.getByTestId("evaluation-agent-model").fill(SUFFIX);
    await dialog.getByTestId("evaluation-split").selectOption("custom");
    await dialog.getByTestId("evaluation-paper-ids").fill(PAPER);
    await dialog.getByTestId("evaluation-runs").fill("1");
    await dialog.getByTestId("evaluation-variant").selectOption("code-dev");
    const createdAnswer = page.waitForResponse(
      (r) => r.url().endsWith("/api/evaluations") && r.request().method() === "POST",
    );
    await dialog.getByTestId("create-evaluation").click();
    const created = (await (await createdAnswer).json()) as { evaluation: { id: string; judgeConfigId: string } };
    expect(created.evaluation.judgeConfigId).toBe(configId);
    const pbEvaluation = created.evaluation.id;

    // The same evaluation judged by the Dummy judge, over the API.
    const configs = (await (await page.request.get("/api/judge/configs")).json()) as {
      configs: { id: string; name: string }[];
    };
    const dummyId = configs.configs.find((c) => c.name === "Dummy judge")!.id;
    const dummyCreated = await page.request.post("/api/evaluations", {
      data: {
        name: `E2E dummy ${SUFFIX}`,
        agent: dummyAgent,
        split: "custom",
        paperIds: [PAPER],
        runs: 1,
        variant: "code-dev",
        judgeConfigId: dummyId,
      },
    });
    expect(dummyCreated.status(), await dummyCreated.text()).toBe(201);
    const dummyEvaluation = ((await dummyCreated.json()) as { evaluation: { id: string } }).evaluation.id;

    const archive = demoArchive(testInfo);
    await uploadRun(page, pbEvaluation, pbAgent, archive);
    await uploadRun(page, dummyEvaluation, dummyAgent, archive);
    await countedCell(page, pbEvaluation);
    await countedCell(page, dummyEvaluation);
    expect(server.requests.length).toBeGreaterThan(0);

    // The evaluation page says how it was scored.
    await page.goto(`/evaluations/${pbEvaluation}`);
    await expect(page.getByTestId("evaluation-scoring").getByTestId("method-badge")).toHaveText("PaperBench method");
    await expect(page.getByTestId("evaluation-provenance")).toContainText("paperbench mode");
    await expect(page.getByTestId("evaluation-provenance")).toContainText("PaperBench default policies");
    await page.goto(`/evaluations/${dummyEvaluation}`);
    await expect(page.getByTestId("evaluation-scoring").getByTestId("method-badge")).toHaveText(
      "placeholder judge — not public",
    );
    await expect(page.getByTestId("evaluation-placeholder-note")).toBeVisible();

    // The public (signed-out) board of the paper, Code-Dev: the paperbench evaluation, marked; no Dummy.
    const board = `/leaderboard?paper=${PAPER}&variant=code-dev`;
    const visitor = await newStudioContext(browser, baseURL);
    try {
      const anon = await visitor.newPage();
      await anon.goto(board);
      const pbRow = anon.locator(`[data-testid="leaderboard-row"][data-agent="${pbAgent}"]`);
      await expect(pbRow.getByTestId("method-badge")).toHaveText("PaperBench method");
      await expect(anon.locator(`[data-testid="leaderboard-row"][data-agent="${dummyAgent}"]`)).toHaveCount(0);
      await expect(anon.getByTestId("placeholder-section")).toHaveCount(0);
      expect(await (await anon.request.get(`/api/leaderboard?paper=${PAPER}&variant=code-dev`)).text()).not.toContain(
        dummyAgent,
      );
      await anon.screenshot({ path: testInfo.outputPath("public-board.png"), fullPage: true });
    } finally {
      await visitor.close();
    }

    // A member sees the Dummy-judged row apart, unranked and marked.
    await page.goto(board);
    const section = page.getByTestId("placeholder-section");
    const dummyRow = section.locator(`[data-testid="leaderboard-row"][data-agent="${dummyAgent}"]`);
    await expect(dummyRow.getByTestId("method-badge")).toHaveText("placeholder judge — not public");
    await expect(dummyRow).toHaveAttribute("data-ranked", "false");
    await expect(
      page.getByTestId("leaderboard-table").locator(`[data-testid="leaderboard-row"][data-agent="${pbAgent}"]`),
    ).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("members-board.png"), fullPage: true });

    // The grading page's line says how the paperbench grading was made.
    const matrix = (await (await page.request.get(`/api/evaluations/${pbEvaluation}/matrix`)).json()) as {
      cells: { gradingId: string }[];
    };
    await page.goto(`/gradings/${matrix.cells[0].gradingId}`);
    const line = page.getByTestId("provenance-line");
    await expect(line).toContainText("o3-mini · paperbench mode · PaperBench");
    await line.locator("summary").click();
    await expect(page.getByTestId("provenance-line-details")).toContainText(configName);
  } finally {
    // No later evaluation may pick this configuration (its endpoint goes away with this test).
    await page.request.delete(`/api/judge/configs/${configId}`);
  }
});
