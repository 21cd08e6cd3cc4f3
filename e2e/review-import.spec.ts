import { AGGREGATED_EXPLANATION } from "../lib/grading/types";
import fs from "node:fs/promises";
import { DEMO_RUBRIC_PATH, firstLeaf, readDemoRubric, type RubricJson } from "./support/files";
import { expect, test } from "./support/fixtures";
import { STAFF } from "./support/users";
import { makeZip } from "../server/submissions/archive.testutil";

/** A PaperBench graded tree of a rubric: every leaf passed (score 1), so every node scores 1. */
function gradedAllPassed(node: RubricJson): object {
  return {
    id: node.id,
    requirements: node.requirements,
    weight: node.weight,
    score: 1.0,
    valid_score: true,
    task_category: node.task_category,
    explanation: node.sub_tasks.length ? AGGREGATED_EXPLANATION : "Implemented as asked.",
    judge_metadata: null,
    sub_tasks: node.sub_tasks.map(gradedAllPassed),
  };
}

test("staff import a graded tree from the paper page: a new agent by name and model, a broken file says where, a good one opens for review and exports", async ({
  asUser,
}) => {
  const paperId = `e2e-grading-import-${Date.now()}`;
  const page = await asUser(STAFF);
  expect((await page.request.post("/api/papers", { data: { id: paperId, title: `Import ${paperId}` } })).status()).toBe(
    201,
  );
  const uploaded = await page.request.put(`/api/papers/${paperId}/rubric`, {
    headers: { "content-type": "application/json" },
    data: await fs.readFile(DEMO_RUBRIC_PATH),
  });
  expect(uploaded.status()).toBe(200);

  await page.goto(`/papers/${paperId}`);
  const panel = page.getByTestId("gradings-panel");
  await expect(panel).toContainText("No gradings yet");
  await panel.getByTestId("grading-import-open").click();
  // A new agent: name and model apart, listed as "name · model" like every agent in the studio.
  await panel.getByTestId("grading-import-agent-new").check();
  await panel.getByTestId("grading-import-agent-name").fill("UIAgent");
  await panel.getByTestId("grading-import-agent-model").fill(`model-${Date.now()}`);
  const agentName = `UIAgent · ${await panel.getByTestId("grading-import-agent-model").inputValue()}`;
  await expect(panel.getByTestId("grading-import-agent-preview")).toHaveText(`Listed as ${agentName}`);

  // A file whose first leaf has a text score: refused with the JSON path, nothing imported.
  const graded = gradedAllPassed(readDemoRubric().tree) as { sub_tasks: { sub_tasks: { score: unknown }[] }[] };
  const broken = structuredClone(graded);
  broken.sub_tasks[0].sub_tasks[0].score = "high";
  await panel
    .getByTestId("grading-import-file")
    .setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(broken)) });
  await panel.getByTestId("grading-import-submit").click();
  await expect(panel.getByTestId("grading-import-error")).toContainText("sub_tasks[0].sub_tasks[0].score");
  await expect(panel.getByTestId("grading-row")).toHaveCount(0);

  // The good file: imported against the current rubric, listed, and open for review.
  await panel.getByTestId("grading-import-file").setInputFiles({
    name: "expected_result.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(graded)),
  });
  await panel.getByTestId("grading-import-submit").click();
  const result = panel.getByTestId("grading-import-result");
  await expect(result).toContainText("root score 100.00% (equal to the file's)");
  await expect(result).toContainText("graded against the current rubric");
  await expect(panel.getByTestId("grading-row")).toHaveCount(1);
  await expect(panel.getByTestId("grading-row")).toContainText(`${agentName} · run 1`);
  const agent = (await (await page.request.get("/api/agents")).json()).agents.find(
    (a: { name: string }) => a.name === agentName,
  );
  expect(agent).toMatchObject({ scaffold: "UIAgent", model: agentName.split(" · ")[1] });

  // A second run of the same agent, picked from the list; half the leaves failed this time.
  await panel.getByTestId("grading-import-agent-existing").check();
  await panel.getByTestId("grading-import-agent").selectOption(agentName);
  await panel.getByTestId("grading-import-run").fill("2");
  const half = structuredClone(graded) as unknown as RubricJson;
  (firstLeaf(half).node as unknown as { score: number }).score = 0;
  await panel
    .getByTestId("grading-import-file")
    .setInputFiles({ name: "run2.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(half)) });
  await expect(panel.getByTestId("grading-import-file-name")).toHaveText("run2.json");
  await panel.getByTestId("grading-import-submit").click();
  await expect(panel.getByTestId("grading-import-score")).toHaveText(/^\d{1,2}\.\d{2}%$/);
  await expect(panel.getByTestId("grading-row")).toHaveCount(2);
  await expect(panel.getByTestId("grading-row").filter({ hasText: "run 2" })).toContainText(agentName);

  await panel.getByTestId("grading-row").filter({ hasText: "run 1" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/gradings\/[0-9a-f-]+$/);

  // Its export gives back the file's scores, as PaperBench writes them.
  await page.getByTestId("grading-export").locator("summary").click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("grading-export-json").click(),
  ]);
  const exported = JSON.parse(await fs.readFile(await download.path(), "utf8"));
  expect(exported.score).toBe(1);
  expect(exported.sub_tasks[0]).toMatchObject({
    score: 1,
    valid_score: true,
    explanation: AGGREGATED_EXPLANATION,
  });
  expect(firstLeaf(exported).node).toMatchObject({ score: 1, valid_score: true, explanation: "Implemented as asked." });

  // The run was imported without its repository: staff attach it from the review page.
  await page.keyboard.press("Escape");
  await page.getByTestId("attach-archive-open").click();
  const dialog = page.getByTestId("attach-archive-dialog");
  await dialog.getByTestId("attach-archive-file").setInputFiles({
    name: "repo.zip",
    mimeType: "application/zip",
    buffer: makeZip([
      { name: "train.py", data: "print('training')\n" },
      { name: "README.md", data: "# repo\n" },
    ]),
  });
  await expect(dialog.getByTestId("attach-archive-file-name")).toHaveText("repo.zip");
  await dialog.getByTestId("attach-archive-submit").click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Attached repo.zip: 2 files")).toBeVisible();
  const files = await (await page.request.get(page.url().replace("/gradings/", "/api/gradings/") + "/files")).json();
  expect(files.files.map((f: { path: string }) => f.path).sort()).toEqual(["README.md", "train.py"]);
});
