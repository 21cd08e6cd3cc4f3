/**
 * The judge lab (issue 14, items 5 and 7): staff run the Dummy and Random judges on a
 * human-labelled submission, watch the lab finish, read the table (F1 per configuration against
 * the human) and the scatter plot beside PaperBench's published figures, and pick the default
 * from the table; then calibrate the demo paper's judge addendum from the seeded override's
 * reason (the Dummy configuration's suggestion, marked as built without a model), accept it as a
 * new version with before and after, and re-run the lab on the paper.
 *
 * The human-labelled submission is the demo's own: the first demo agent's first run, whose
 * human grading the seed imports and whose files are the demo repository (issue 21, bug 6: it had
 * none, and the lab had no Code-Dev choice). The lab grades it Code-Dev, chosen on the page: the
 * full variant would need a reproduction first. Lab gradings count nowhere, so the demo's counts stay.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { screenshots } from "./support/screenshots";
import { DEMO_PAPER, STAFF } from "./support/users";

test.describe.configure({ mode: "serial", timeout: 120_000 });

const LABELLED = "Demo BasicAgent · o1 · run 1";

async function configId(page: Page, name: string): Promise<string> {
  const { configs } = (await (await page.request.get("/api/judge/configs")).json()) as {
    configs: { id: string; name: string }[];
  };
  return configs.find((c) => c.name === name)!.id;
}

test("staff compare two judges on a human-labelled submission, pick the default from the table, and calibrate the addendum", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  await page.goto("/judge-lab");
  const start = page.getByTestId("judge-lab-start");
  await start.getByLabel(/Dummy judge/).check();
  await start.getByLabel(/Random judge/).check();
  await start.getByLabel(LABELLED).check();
  await start
    .getByTestId("judge-lab-variant")
    .getByLabel(/Code-Dev/)
    .check();
  await screenshots(page, testInfo, "judge-lab-start");
  const started = page.waitForRequest((r) => r.url().endsWith("/api/judge-lab") && r.method() === "POST");
  await start.getByTestId("judge-lab-start-button").click();
  expect((await started).postDataJSON()).toMatchObject({ variant: "code-dev" });

  const table = page.getByTestId("judge-lab-table");
  const dummyRow = table.getByTestId("judge-lab-row").filter({ hasText: "Dummy judge" });
  const randomRow = table.getByTestId("judge-lab-row").filter({ hasText: "Random judge" });
  await expect(page.getByTestId("judge-lab-progress")).toContainText("2 of 2 runs ended", { timeout: 0 });
  await expect(dummyRow).toContainText("1/1");
  await expect(dummyRow.locator("td").nth(2)).toHaveText(/^0\.\d\d$|^1\.00$/);
  await expect(page.getByTestId("judge-lab-scatter")).toContainText("PaperBench, published");
  await expect(page.getByTestId("judge-lab-scatter")).toContainText("measured on PaperBench's JudgeEval set");
  await screenshots(page, testInfo, "judge-lab", { fullPage: true });

  // The default has no "Make default" of its own: one at a time.
  await expect(dummyRow.getByTestId("judge-lab-make-default")).toHaveCount(0);
  await randomRow.getByTestId("judge-lab-make-default").click();
  await expect(randomRow.getByTestId("judge-lab-make-default")).toHaveCount(0);
  await expect(dummyRow.getByTestId("judge-lab-make-default")).toBeVisible();

  // Calibration: the seeded override's reason, a suggestion built without a model, accepted as a new version.
  await page.getByTestId("judge-lab-calibration-tab").click();
  await page.getByTestId("calibration-paper").selectOption(DEMO_PAPER.id);
  await expect(page.getByTestId("calibration-overrides")).toContainText("the judge missed it");
  const editor = page.getByTestId("addendum-editor");
  await editor.getByLabel("Configuration to ask").selectOption({ label: "Dummy judge (dummy)" });
  await page.getByTestId("calibration-suggest").click();
  const suggestions = page.getByTestId("calibration-suggestions");
  await expect(suggestions).toContainText("Built from the reasons alone, without a model");
  await suggestions.getByRole("button", { name: "Add" }).first().click();
  await expect(page.getByTestId("calibration-text")).toHaveValue(/the judge missed it/);
  await page.getByTestId("calibration-accept").click();
  const beforeAfter = page.getByTestId("calibration-before-after");
  await expect(beforeAfter).toContainText("After (v2)");
  await expect(beforeAfter).toContainText("the judge missed it");
  // The paper's calibration read again after the acceptance (the version list, v1 recorded and v2) moves the
  // re-run button down: clicking before it lands can hit where the button was.
  await expect(editor.getByText("Versions (2)")).toBeVisible();
  await screenshots(page, testInfo, "calibration", { fullPage: true });

  await page.getByTestId("calibration-rerun").click();
  await expect(page.getByTestId("judge-lab-progress")).toBeVisible();
  await expect(page.getByTestId("judge-lab-progress")).toContainText("2 of 2 runs ended", { timeout: 0 });
  await page.getByTestId("judge-lab-calibration-tab").click();
  await page.getByTestId("calibration-paper").selectOption(DEMO_PAPER.id);
  const byVersion = page
    .getByTestId("calibration-panel")
    .getByTestId("judge-lab-row")
    .filter({ hasText: "Dummy judge" });
  await expect(byVersion).toHaveCount(2);
  await expect(byVersion.nth(0)).toContainText("v1");
  await expect(byVersion.nth(1)).toContainText("v2");

  // The specs after this one expect the seed's default.
  const restored = await page.request.patch(`/api/judge/configs/${await configId(page, "Dummy judge")}`, {
    data: { isDefault: true },
  });
  expect(restored.status()).toBe(200);
});
