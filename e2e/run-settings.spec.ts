import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { PaperPage } from "./support/pages";
import { GRADER, STAFF } from "./support/users";

/**
 * The paper page's Reproduction panel: staff set the timeout, GPUs, network and salvage retries
 * from the keyboard, see the studio's refusal beside its field, and set a secret whose value never
 * comes back; a grader reads it all, with the secret's name only. On a paper of its own, so the
 * demo paper's settings stay the studio's defaults for the specs that reproduce there.
 */
test.describe.configure({ mode: "serial" });

const SECRET_VALUE = "hf_e2e-secret-value-31c9";

test("staff edit the reproduction settings and secrets from the keyboard; a grader reads names only", async ({
  asUser,
}) => {
  // Two users' sign-ins and a dozen round trips.
  test.setTimeout(60_000);
  const staff = await asUser(STAFF);
  const paperId = `e2e-run-settings-${Date.now()}`;
  await paperWithDemoRubric(staff, paperId);
  expect(
    (
      await staff.request.post(`/api/papers/${paperId}/members`, { data: { email: GRADER.email, role: "grader" } })
    ).status(),
  ).toBe(201);
  const paper = new PaperPage(staff, paperId);
  await paper.goto();
  const panel = staff.getByTestId("run-settings-panel");
  await expect(panel.getByLabel("Timeout hours")).toHaveValue("24");
  await expect(panel.getByText("24 h of wall-clock time")).toBeVisible();

  // Tab order: hours, minutes, GPUs, network.
  await panel.getByLabel("Timeout hours").fill("2");
  await staff.keyboard.press("Tab");
  await expect(panel.getByLabel("Timeout minutes")).toBeFocused();
  await staff.keyboard.type("30");
  await staff.keyboard.press("Tab");
  await expect(panel.getByLabel("GPUs per job")).toBeFocused();
  await staff.keyboard.press("Control+a");
  await staff.keyboard.type("1");
  await staff.keyboard.press("Tab");
  await expect(panel.getByLabel("Network allowed")).toBeFocused();
  await staff.keyboard.press("Space");
  await expect(panel.getByLabel("Network allowed")).toBeChecked();
  await expect(panel.getByText("2 h 30 min of wall-clock time")).toBeVisible();

  // A value the browser lets through and the studio refuses: its message sits under the field.
  const salvage = panel.getByLabel("Salvage retry below (seconds)");
  await salvage.fill("100000");
  await panel.getByRole("button", { name: "Save settings" }).click();
  await expect(panel.getByRole("alert")).toContainText("must be at most 24 hours");
  await expect(salvage).toHaveAttribute("aria-invalid", "true");
  await salvage.fill("600");
  await panel.getByRole("button", { name: "Save settings" }).click();
  await expect(staff.getByText("Reproduction settings saved")).toBeVisible();

  // A bad name is refused beside the name; a good one is set and its value never shown.
  await panel.getByLabel("Secret name").fill("hf-token");
  await panel.getByLabel("Secret value").fill(SECRET_VALUE);
  await panel.getByRole("button", { name: "Set secret" }).click();
  await expect(panel.getByRole("alert")).toContainText("environment variable name");
  await panel.getByLabel("Secret name").fill("HF_TOKEN");
  await panel.getByRole("button", { name: "Set secret" }).click();
  await expect(staff.getByText("HF_TOKEN set")).toBeVisible();
  await expect(panel.getByRole("list", { name: "Secrets" }).getByText("HF_TOKEN", { exact: true })).toBeVisible();
  await expect(panel.getByLabel("Secret value")).toHaveValue("");
  await staff.reload();
  await expect(panel.getByLabel("Timeout minutes")).toHaveValue("30");
  expect(await staff.content()).not.toContain(SECRET_VALUE);

  const grader = await asUser(GRADER);
  await new PaperPage(grader, paperId).goto();
  const readOnly = grader.getByTestId("run-settings-panel");
  await expect(readOnly.getByTestId("run-setting-timeout")).toHaveText("2 h 30 min");
  await expect(readOnly.getByTestId("run-setting-network")).toHaveText("allowed");
  await expect(readOnly.getByText("HF_TOKEN", { exact: true })).toBeVisible();
  await expect(readOnly.locator("input")).toHaveCount(0);
  await expect(readOnly.getByRole("button")).toHaveCount(0);

  // Staff remove it again.
  await panel.getByRole("button", { name: "Remove HF_TOKEN" }).click();
  await expect(panel.getByText("No secrets.")).toBeVisible();
});
