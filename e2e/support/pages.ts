import { expect, type Download, type Locator, type Page } from "@playwright/test";
import fs from "node:fs/promises";
import type { DemoUser } from "./users";

/** /signin: the email and password form. */
export class SignInPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/signin");
  }

  async submit(email: string, password: string): Promise<void> {
    await this.page.locator('input[name="email"]:not([type="hidden"])').fill(email);
    await this.page.locator('input[name="password"]:not([type="hidden"])').fill(password);
    await this.page.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  /** The form's alert (Next.js also renders an empty role=alert route announcer). */
  get error(): Locator {
    return this.page.locator('[role="alert"]:not(#__next-route-announcer__)');
  }
}

/** The header, on every page. */
export class SiteHeader {
  constructor(readonly page: Page) {}

  get currentUser(): Locator {
    return this.page.getByTestId("current-user");
  }

  get signInLink(): Locator {
    return this.page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true });
  }

  async signOut(): Promise<void> {
    await this.page.getByRole("button", { name: "Sign out" }).click();
  }
}

/** Signs in through the form and waits for the header to name the user. */
export async function signIn(page: Page, user: DemoUser, { from = "/signin" } = {}): Promise<void> {
  await page.goto(from);
  await new SignInPage(page).submit(user.email, user.password);
  await expect(new SiteHeader(page).currentUser).toContainText(user.name);
}

/** /: the papers the signed-in user belongs to. */
export class HomePage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/");
  }

  get paperList(): Locator {
    return this.page.getByTestId("paper-list");
  }

  paperLink(paperId: string): Locator {
    return this.paperList.locator(`a[href="/papers/${paperId}"]`);
  }
}

/** /papers/new: the create-paper form. */
export class NewPaperPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/papers/new");
  }

  async create(fields: {
    id: string;
    title: string;
    paperMarkdown?: string;
    addendum?: string;
    judgeAddendum?: string;
    blacklist?: string;
  }): Promise<PaperPage> {
    const form = this.page.locator("form", { has: this.page.getByRole("button", { name: "Create paper" }) });
    for (const [name, value] of Object.entries(fields)) {
      if (value !== undefined) await form.locator(`[name="${name}"]`).fill(value);
    }
    await form.getByRole("button", { name: "Create paper" }).click();
    await this.page.waitForURL(`**/papers/${fields.id}`);
    const paper = new PaperPage(this.page, fields.id);
    await expect(paper.title).toHaveText(fields.title);
    return paper;
  }
}

/** /papers/<id>: header, rubric panel, paper text, members. */
export class PaperPage {
  constructor(
    readonly page: Page,
    readonly paperId: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`/papers/${this.paperId}`);
  }

  get title(): Locator {
    return this.page.getByTestId("paper-title");
  }
  get role(): Locator {
    return this.page.getByTestId("paper-role");
  }
  get accessDenied(): Locator {
    return this.page.getByTestId("access-denied");
  }

  // Rubric panel
  get rubricPanel(): Locator {
    return this.page.locator('section[aria-labelledby="rubric-heading"]');
  }
  get stats(): Locator {
    return this.page.getByTestId("rubric-stats");
  }
  get empty(): Locator {
    return this.page.getByTestId("rubric-empty");
  }
  get tree(): Locator {
    return this.page.getByTestId("rubric-tree");
  }
  get uploadErrors(): Locator {
    return this.page.getByTestId("upload-errors");
  }
  get exportBlocked(): Locator {
    return this.page.getByTestId("export-blocked");
  }
  /** The rubric's lint (the editor's rules and count), shown when there is something to say. */
  get lint(): Locator {
    return this.page.getByTestId("rubric-lint");
  }
  get lintCount(): Locator {
    return this.page.getByTestId("rubric-lint-count");
  }
  get fileInput(): Locator {
    return this.page.locator('input[type="file"][aria-label="Upload rubric.json"]');
  }
  /** The visible button that opens the file picker ("Upload rubric.json" / "Replace from rubric.json"). */
  get uploadButton(): Locator {
    return this.rubricPanel.getByRole("button", { name: /^(Upload|Replace from) rubric\.json$/ });
  }
  get downloadButton(): Locator {
    return this.rubricPanel.getByRole("button", { name: "Download rubric.json" });
  }

  /** The question shown before an upload replaces a rubric that has nodes, with the changes. */
  get replaceDialog(): Locator {
    return this.page.getByTestId("replace-rubric-dialog");
  }

  /**
   * Uploads a file through the hidden input, confirms the replacement when the studio asks, and
   * returns the status of the import, or of the preview when that refused the file (nothing is
   * imported then).
   */
  async uploadRubric(file: string): Promise<number> {
    const rubricPath = `/api/papers/${this.paperId}/rubric`;
    const previewed = this.page.waitForResponse((r) => new URL(r.url()).pathname === `${rubricPath}/preview`);
    const imported = this.page.waitForResponse(
      (r) => r.request().method() === "PUT" && new URL(r.url()).pathname === rubricPath,
    );
    // Not awaited when the preview refused the file: its rejection at the page's close is expected.
    imported.catch(() => {});
    await this.fileInput.setInputFiles(file);
    const preview = await previewed;
    if (!preview.ok()) return preview.status();
    if ((await preview.json()).replaces) await this.replaceDialog.getByTestId("replace-confirm").click();
    return (await imported).status();
  }

  /** Clicks a button that downloads the rubric and returns the downloaded bytes. */
  async downloadWith(button: Locator): Promise<{ download: Download; bytes: Buffer }> {
    const [download] = await Promise.all([this.page.waitForEvent("download"), button.click()]);
    const file = await download.path();
    return { download, bytes: await fs.readFile(file) };
  }

  /** The section holding the rendered paper markdown. */
  get paperSection(): Locator {
    return this.page.locator("section", { has: this.page.getByRole("heading", { name: "Paper", exact: true }) });
  }

  // Members panel
  get membersPanel(): Locator {
    return this.page.getByTestId("members-panel");
  }

  async addMember(email: string, role: "author" | "grader"): Promise<void> {
    const panel = this.membersPanel;
    await panel.getByLabel("Member email").fill(email);
    await panel.getByLabel("Member role").selectOption(role);
    const answered = this.page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname === `/api/papers/${this.paperId}/members`,
    );
    await panel.getByRole("button", { name: "Add member" }).click();
    expect((await answered).status()).toBe(201);
  }
}
