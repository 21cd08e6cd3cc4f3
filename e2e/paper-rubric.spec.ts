import type { Page } from "@playwright/test";
import { expect, newStudioContext, test } from "./support/fixtures";
import {
  DEMO_RUBRIC_PATH,
  allRequirements,
  firstLeaf,
  leakedRequirements,
  readDemoRubric,
  writeFile,
} from "./support/files";
import { HomePage, NewPaperPage, PaperPage } from "./support/pages";
import { AUTHOR, GRADER, STAFF } from "./support/users";
import { serializeRubric } from "../lib/rubric/paperbench";

/**
 * One paper's life, in order: staff create it and upload its rubric; non-members and signed-out
 * visitors see none of it; staff add a grader, who sees the rubric read-only.
 */
test.describe.configure({ mode: "serial" });

const paperId = `e2e-${Date.now()}`;
const title = `E2E paper ${paperId}`;
const demo = readDemoRubric();
const requirements = allRequirements(demo.tree);
const STATS = "33 nodes · 21 leaves · depth 4 · revision 1";

const markdown = [
  "# Adaptive clipping, reproduced",
  "",
  "The method keeps an **exponential moving average** of gradient norms.",
  "",
  '<script>window.__e2eXss = "script"; alert("script")</script>',
  "",
  "<img src=\"x\" onerror=\"window.__e2eXss = 'img'; alert('img')\">",
  "",
  '<a href="javascript:alert(1)">a javascript link</a>',
  "",
  "- first point",
  "- second point",
].join("\n");

/** The tree opens on the root's children; opening the first path down reaches the first leaf. */
async function expectTreeShowsRubric(paper: PaperPage): Promise<void> {
  const tree = paper.tree;
  await expect(tree.getByRole("treeitem")).toHaveCount(1 + demo.tree.sub_tasks.length);
  for (const child of demo.tree.sub_tasks) await expect(tree).toContainText(child.requirements);
  const leaf = firstLeaf(demo.tree).node.requirements;
  await expect(tree.getByText(leaf, { exact: true })).toHaveCount(0);
  // Open the first child at each level until the leaf shows.
  for (let node = demo.tree.sub_tasks[0]; node.sub_tasks.length > 0; node = node.sub_tasks[0]) {
    const row = tree.getByText(node.requirements, { exact: true }).locator("xpath=..");
    await row.getByRole("button", { name: "Expand" }).click();
    await expect(row.getByRole("button", { name: "Collapse" })).toBeVisible();
    await expect(tree.getByText(node.sub_tasks[0].requirements, { exact: true })).toBeVisible();
  }
  await expect(tree.getByText(leaf, { exact: true })).toBeVisible();
}

async function expectNoScriptRan(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __e2eXss?: string }).__e2eXss)).toBeUndefined();
}

test("staff create a paper whose markdown renders sanitised", async ({ asUser }) => {
  const page = await asUser(STAFF);
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });

  const newPaper = new NewPaperPage(page);
  await newPaper.goto();
  const paper = await newPaper.create({
    id: paperId,
    title,
    paperMarkdown: markdown,
    addendum: "Use the *small* configuration.",
    blacklist: "https://github.com/example/wagc\n",
  });
  await expect(paper.role).toHaveText("staff");
  await expect(paper.empty).toBeVisible();
  await expect(paper.uploadButton).toHaveText("Upload rubric.json");

  // Check the client-rendered page (after router.push) and a fresh server render.
  for (const pass of ["after create", "after reload"]) {
    if (pass === "after reload") await page.reload();
    const section = paper.paperSection;
    await expect(section.getByRole("heading", { level: 1, name: "Adaptive clipping, reproduced" })).toBeVisible();
    await expect(section.locator("strong")).toHaveText("exponential moving average");
    await expect(section.getByRole("listitem")).toHaveText(["first point", "second point"]);
    // Raw HTML never becomes elements: no script, no event handler, no javascript: URL.
    await expect(section.locator("script")).toHaveCount(0);
    await expect(section.locator("img")).toHaveCount(0);
    await expect(section.locator("[onerror]")).toHaveCount(0);
    await expect(section.locator('a[href^="javascript:"]')).toHaveCount(0);
    await expect(page.locator("script", { hasText: "__e2eXss" })).toHaveCount(0);
    await expectNoScriptRan(page);
  }
  await expect(page.getByText("https://github.com/example/wagc")).toBeVisible();
  expect(dialogs).toEqual([]);

  const home = new HomePage(page);
  await home.goto();
  await expect(home.paperLink(paperId)).toContainText(title);
  await expect(home.paperLink(paperId)).toContainText("no rubric");
});

test("staff upload rubric.json and download exactly the same bytes", async ({ asUser }) => {
  const page = await asUser(STAFF);
  const paper = new PaperPage(page, paperId);
  await paper.goto();
  await expect(paper.empty).toBeVisible();

  expect(await paper.uploadRubric(DEMO_RUBRIC_PATH)).toBe(200);
  await expect(paper.stats).toHaveText(STATS);
  await expect(paper.empty).toHaveCount(0);
  await expect(paper.tree).toBeVisible();
  await expectTreeShowsRubric(paper);
  await expect(paper.uploadButton).toHaveText("Replace from rubric.json");

  const { download, bytes } = await paper.downloadWith(paper.downloadButton);
  expect(download.suggestedFilename()).toBe("rubric.json");
  expect(bytes.equals(demo.bytes)).toBe(true);

  // The API export is the same file.
  const res = await page.request.get(`/api/papers/${paperId}/rubric/export`);
  expect(res.status()).toBe(200);
  expect((await res.body()).equals(demo.bytes)).toBe(true);
});

test("an invalid rubric is refused with its JSON path and changes nothing", async ({ asUser }, testInfo) => {
  const page = await asUser(STAFF);
  const paper = new PaperPage(page, paperId);
  await paper.goto();
  await expect(paper.stats).toHaveText(STATS);

  const bad = structuredClone(demo.tree);
  bad.sub_tasks[0].weight = -1;
  const file = writeFile(testInfo.outputPath("rubric.json"), serializeRubric(bad));

  const status = await paper.uploadRubric(file);
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
  await expect(paper.uploadErrors).toBeVisible();
  await expect(paper.uploadErrors).toContainText("sub_tasks[0].weight: must be a number >= 0");

  // Still the first revision, still the uploaded tree.
  await expect(paper.stats).toHaveText(STATS);
  await page.reload();
  await expect(paper.stats).toHaveText(STATS);
  const api = await page.request.get(`/api/papers/${paperId}/rubric`);
  expect(api.status()).toBe(200);
  const body = await api.json();
  expect(body.revision).toBe(1);
  expect(body.tree.sub_tasks[0].weight).toBe(demo.tree.sub_tasks[0].weight);
  const exported = await page.request.get(`/api/papers/${paperId}/rubric/export`);
  expect((await exported.body()).equals(demo.bytes)).toBe(true);
});

test("a member of another paper sees no access and none of the rubric", async ({ asUser }) => {
  const page = await asUser(AUTHOR);
  const paper = new PaperPage(page, paperId);

  const home = new HomePage(page);
  await home.goto();
  await expect(home.paperList).toBeVisible();
  await expect(home.paperLink(paperId)).toHaveCount(0);

  await paper.goto();
  await expect(paper.accessDenied).toBeVisible();
  await expect(paper.rubricPanel).toHaveCount(0);
  await expect(paper.title).toHaveCount(0);
  expect(leakedRequirements(await page.content(), requirements)).toEqual([]);
  await expect(page.getByText(title)).toHaveCount(0);

  for (const url of [
    `/api/papers/${paperId}/rubric`,
    `/api/papers/${paperId}/rubric/export`,
    `/api/papers/${paperId}/members`,
  ]) {
    const res = await page.request.get(url);
    expect(res.status(), url).toBe(403);
    const text = await res.text();
    expect(JSON.parse(text).error.code, url).toBe("forbidden");
    expect(leakedRequirements(text, requirements), url).toEqual([]);
  }

  const put = await page.request.put(`/api/papers/${paperId}/rubric`, {
    headers: { "content-type": "application/json" },
    data: demo.bytes,
  });
  expect(put.status()).toBe(403);
});

test("a signed-out visitor is sent to sign in and the API answers 401", async ({ browser, baseURL }) => {
  const context = await newStudioContext(browser, baseURL);
  try {
    const page = await context.newPage();
    await page.goto(`/papers/${paperId}`);
    await expect(page).toHaveURL(`/signin?callbackUrl=${encodeURIComponent(`/papers/${paperId}`)}`);
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    expect(leakedRequirements(await page.content(), requirements)).toEqual([]);

    for (const url of [
      `/api/papers/${paperId}/rubric`,
      `/api/papers/${paperId}/rubric/export`,
      `/api/papers/${paperId}/rubric/export?force=1`,
    ]) {
      const res = await page.request.get(url);
      expect(res.status(), url).toBe(401);
      const text = await res.text();
      expect(JSON.parse(text).error.code, url).toBe("unauthorized");
      expect(leakedRequirements(text, requirements), url).toEqual([]);
    }
  } finally {
    await context.close();
  }
});

test("staff add a grader, who sees the rubric read-only", async ({ asUser }) => {
  const staffPage = await asUser(STAFF);
  const staffView = new PaperPage(staffPage, paperId);
  await staffView.goto();
  await expect(staffView.membersPanel).toContainText("No members yet.");
  await staffView.addMember(GRADER.email, "grader");
  const row = staffView.membersPanel.getByRole("listitem").filter({ hasText: GRADER.name });
  await expect(row).toContainText("grader");

  const page = await asUser(GRADER);
  const home = new HomePage(page);
  await home.goto();
  await expect(home.paperLink(paperId)).toContainText("grader");

  const paper = new PaperPage(page, paperId);
  await paper.goto();
  await expect(paper.role).toHaveText("grader");
  await expect(paper.stats).toHaveText(STATS);
  await expectTreeShowsRubric(paper);
  await expect(paper.downloadButton).toBeVisible();
  await expect(paper.uploadButton).toHaveCount(0);
  await expect(paper.fileInput).toHaveCount(0);
  await expect(paper.membersPanel.getByRole("button", { name: "Add member" })).toHaveCount(0);

  const put = await page.request.put(`/api/papers/${paperId}/rubric`, {
    headers: { "content-type": "application/json" },
    data: demo.bytes,
  });
  expect(put.status()).toBe(403);
  const error = (await put.json()).error;
  expect(error.code).toBe("forbidden");
  expect(error.message).toContain("cannot edit its rubric");

  await page.reload();
  await expect(paper.stats).toHaveText(STATS);
});
