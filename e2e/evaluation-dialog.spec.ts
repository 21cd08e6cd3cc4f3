/**
 * The new-evaluation dialog (issue 21): one Scaffold field (the agent's), its buttons in view at
 * 900 and 768 px high, the list behind it showing the new evaluation at once, and a folder whose
 * runs lack reproduce.sh flagged before the upload. And one <main> per page, on every page.
 * Its own paper, agent and evaluation; nothing is uploaded.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { screenshots } from "./support/screenshots";
import { DEMO_PAPER, STAFF } from "./support/users";

test.describe.configure({ timeout: 90_000 });

const SUFFIX = crypto.randomBytes(3).toString("hex");

test("the new-evaluation dialog asks the scaffold once, keeps its buttons in view, refreshes the list and flags runs without reproduce.sh", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const paperId = `e2e-dialog-${SUFFIX}`;
  await paperWithDemoRubric(page, paperId);
  await page.goto("/evaluations");
  await page.getByTestId("new-evaluation").click();
  const dialog = page.getByTestId("new-evaluation-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Scaffold", { exact: true })).toHaveCount(1);

  // The buttons are on screen without scrolling, at both sizes.
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    await page.setViewportSize(size);
    await expect(dialog.getByTestId("create-evaluation"), `at ${size.width}×${size.height}`).toBeInViewport({
      ratio: 1,
    });
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeInViewport({ ratio: 1 });
  }
  await screenshots(page, testInfo, "new-evaluation-dialog");

  const name = `E2E dialog ${SUFFIX}`;
  await dialog.getByTestId("evaluation-name").fill(name);
  await dialog.getByTestId("evaluation-agent-scaffold").fill("E2E Dialog Scaffold");
  await dialog.getByTestId("evaluation-agent-model").fill(SUFFIX);
  await expect(dialog.getByTestId("evaluation-setup-scaffold")).toContainText("E2E Dialog Scaffold");
  await dialog.getByTestId("evaluation-split").selectOption("custom");
  await dialog.getByTestId("evaluation-paper-ids").fill(paperId);
  await dialog.getByTestId("evaluation-runs").fill("3");
  const createdAnswer = page.waitForResponse(
    (r) => r.url().endsWith("/api/evaluations") && r.request().method() === "POST",
  );
  await dialog.getByTestId("create-evaluation").click();
  const created = (await (await createdAnswer).json()) as {
    evaluation: { id: string; setup: { scaffold: string | null } };
  };
  expect(created.evaluation.setup.scaffold).toBe("E2E Dialog Scaffold");

  // The list behind the upload step already has it.
  const upload = page.getByTestId("bulk-upload-dialog");
  await expect(upload).toBeVisible();
  await expect(page.getByTestId("evaluations-page").getByRole("link", { name, exact: true })).toBeAttached();

  // A folder of <paper>/<run>/submission/: runs 2 and 3 have no reproduce.sh at their root.
  const root = testInfo.outputPath("runs-folder");
  for (const run of [1, 2, 3]) {
    const dir = path.join(root, paperId, String(run), "submission");
    fs.mkdirSync(path.join(dir, "src"), { recursive: true });
    fs.writeFileSync(path.join(dir, "train.py"), "print('train')\n");
    if (run === 1) fs.writeFileSync(path.join(dir, "reproduce.sh"), "#!/usr/bin/env bash\npython train.py\n");
    if (run === 3) fs.writeFileSync(path.join(dir, "src", "reproduce.sh"), "# not at the root\n");
  }
  await upload.getByTestId("bulk-mode-folder").check();
  await upload.getByLabel("Submissions folder").setInputFiles(root);
  const warning = upload.getByTestId("bulk-missing-reproduce");
  await expect(warning).toContainText("2 runs");
  await expect(warning).toContainText(`${paperId}/2, ${paperId}/3`);
  await expect(warning).not.toContainText(`${paperId}/1`);
  await expect(upload.getByTestId("bulk-upload")).toBeEnabled();
  await screenshots(page, testInfo, "missing-reproduce");
});

test("every page has one <main>", async ({ asUser, browser }) => {
  const page = await asUser(STAFF);
  const { submissions } = (await (await page.request.get(`/api/papers/${DEMO_PAPER.id}/submissions`)).json()) as {
    submissions: { id: string }[];
  };
  const { gradings } = (await (await page.request.get(`/api/papers/${DEMO_PAPER.id}/gradings`)).json()) as {
    gradings: { id: string }[];
  };
  // An evaluation of its own (of a paper of its own), for the evaluation page.
  const paperId = `e2e-main-${SUFFIX}`;
  await paperWithDemoRubric(page, paperId);
  const created = await page.request.post("/api/evaluations", {
    data: {
      name: `E2E one main ${SUFFIX}`,
      agent: `E2E One Main ${SUFFIX}`,
      split: "custom",
      paperIds: [paperId],
      runs: 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const evaluationId = ((await created.json()) as { evaluation: { id: string } }).evaluation.id;
  const paths = [
    "/",
    "/leaderboard",
    "/evaluations",
    `/evaluations/${evaluationId}`,
    "/jobs",
    "/runners",
    "/judge",
    "/judge-eval",
    "/judge-lab",
    "/reviews",
    "/settings/tokens",
    "/papers/new",
    `/papers/${DEMO_PAPER.id}`,
    `/papers/${DEMO_PAPER.id}/rubric`,
    `/papers/${DEMO_PAPER.id}/edit`,
    `/papers/${DEMO_PAPER.id}/judge-eval`,
    `/submissions/${submissions[0].id}`,
    `/gradings/${gradings[0].id}`,
  ];
  for (const url of paths) {
    await page.goto(url);
    await expect(page.locator("main").first(), url).toBeVisible();
    await expect(page.locator("main"), url).toHaveCount(1);
  }
  const visitor = await browser.newPage();
  for (const url of ["/signin", "/leaderboard"]) {
    await visitor.goto(url);
    await expect(visitor.locator("main"), url).toHaveCount(1);
  }
  await visitor.close();
});
