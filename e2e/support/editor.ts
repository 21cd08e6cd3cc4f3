import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { NodeRow } from "../../lib/rubric/tree-rows";

/** What `GET /api/papers/<id>/rubric/nodes` answers: the live rows with their internal keys. */
export interface NodesResponse {
  rubricId: string | null;
  revision: number;
  canEdit: boolean;
  nodes: NodeRow[];
}

export async function getNodes(request: APIRequestContext, paperId: string): Promise<NodesResponse> {
  const res = await request.get(`/api/papers/${paperId}/rubric/nodes`);
  expect(res.status(), "GET rubric/nodes").toBe(200);
  return (await res.json()) as NodesResponse;
}

/** The live row whose requirements are exactly `requirements` (fails unless there is exactly one). */
export function rowByText(nodes: readonly NodeRow[], requirements: string): NodeRow {
  const found = nodes.filter((n) => n.requirements === requirements);
  expect(
    found.map((n) => n.requirements),
    `one live node "${requirements}"`,
  ).toEqual([requirements]);
  return found[0];
}

/** The requirements of the parent of the node `requirements` (null for the root), read from the server. */
export async function parentTextOf(
  request: APIRequestContext,
  paperId: string,
  requirements: string,
): Promise<string | null> {
  const { nodes } = await getNodes(request, paperId);
  const node = rowByText(nodes, requirements);
  if (node.parentKey === null) return null;
  return nodes.find((n) => n.key === node.parentKey)?.requirements ?? "(missing parent)";
}

/** Sends one operation as the page's user (what another editor of the same rubric would do). */
export async function postOperation(
  request: APIRequestContext,
  paperId: string,
  op: unknown,
): Promise<{ status: number; body: { revision?: number; error?: { code: string; message: string } } }> {
  const { revision } = await getNodes(request, paperId);
  const res = await request.post(`/api/papers/${paperId}/rubric/operations`, {
    data: { clientOpId: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`, baseRevision: revision, op },
  });
  return { status: res.status(), body: await res.json() };
}

/** Uncaught exceptions of the page, collected from now on (assert it stays empty). */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.stack ?? err.message));
  return errors;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** /papers/<id>/rubric: the rubric editor (tree, toolbar, inspector and side panels). */
export class EditorPage {
  constructor(
    readonly page: Page,
    readonly paperId: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`/papers/${this.paperId}/rubric`);
  }

  /** Opens the editor and waits until the loaded tree (or the empty state) shows. */
  async open(): Promise<void> {
    await this.goto();
    await expect(this.editor.or(this.empty)).toBeVisible();
  }

  get editor(): Locator {
    return this.page.getByTestId("rubric-editor");
  }
  get empty(): Locator {
    return this.page.getByTestId("editor-empty");
  }
  get startFromScratch(): Locator {
    return this.page.getByTestId("start-from-scratch");
  }
  get tree(): Locator {
    return this.page.getByTestId("editor-tree");
  }
  get rows(): Locator {
    return this.page.getByTestId("tree-row");
  }
  get inlineEditor(): Locator {
    return this.page.getByTestId("inline-editor");
  }
  get saveState(): Locator {
    return this.page.getByTestId("save-state");
  }
  get revision(): Locator {
    return this.page.getByTestId("editor-revision");
  }
  get readOnlyBadge(): Locator {
    return this.page.getByTestId("read-only-badge");
  }
  get stats(): Locator {
    return this.page.getByTestId("editor-stats");
  }

  /** The tree row whose requirement text is exactly `text`. */
  row(text: string): Locator {
    return this.rows.filter({
      has: this.page.getByTestId("row-text").filter({ hasText: new RegExp(`^${escapeRegExp(text)}$`) }),
    });
  }

  /** The row's requirement text cell (a click there selects the row without toggling it). */
  rowText(text: string): Locator {
    return this.row(text).getByTestId("row-text");
  }

  /**
   * Shows the inspector, clicks a row and waits for the inspector to show its node. The keyboard
   * focus ends on the tree, so that the editor's node keys (a, s, Enter, Delete…) act on the row.
   */
  async select(text: string): Promise<void> {
    const tab = this.tab("inspector");
    if ((await tab.getAttribute("aria-selected")) !== "true") await tab.click();
    // Clicked again until it takes: on a loaded machine a click can land while the tree re-renders
    // (a co-editor's live change, an expand), and nothing selects. Bounded by the test's timeout.
    await expect(async () => {
      await this.rowText(text).click();
      await expect(this.row(text)).toHaveAttribute("data-selected", "true", { timeout: 2_000 });
    }).toPass();
    await expect(this.inspectorRequirements).toHaveValue(text);
  }

  /** Types the requirement text into the open inline editor and saves it with Enter. */
  async typeInline(text: string): Promise<void> {
    await expect(this.inlineEditor).toBeFocused();
    await this.page.keyboard.type(text);
    await expect(this.inlineEditor).toHaveValue(text);
    await this.page.keyboard.press("Enter");
    await expect(this.inlineEditor).toHaveCount(0);
    await expect(this.row(text)).toBeVisible();
  }

  /** Waits until every change was acknowledged by the server. */
  async expectSaved(): Promise<void> {
    await expect(this.saveState).toHaveText("Saved");
  }

  // Toolbar
  button(
    testId:
      | "add-child"
      | "add-sibling"
      | "duplicate"
      | "delete"
      | "undo-button"
      | "redo-button"
      | "export-button"
      | "help-button",
  ): Locator {
    return this.page.getByTestId(testId);
  }

  // Side panel
  tab(name: "inspector" | "comments" | "lint" | "summary" | "versions" | "deleted"): Locator {
    return this.page.getByTestId(`tab-${name}`);
  }
  get inspector(): Locator {
    return this.page.getByTestId("inspector");
  }
  get inspectorRequirements(): Locator {
    return this.page.getByTestId("inspector-requirements");
  }
  get inspectorWeight(): Locator {
    return this.page.getByTestId("inspector-weight");
  }
  get inspectorCategory(): Locator {
    return this.page.getByTestId("inspector-category");
  }
  get inspectorFinegrained(): Locator {
    return this.page.getByTestId("inspector-finegrained");
  }
  get inspectorShare(): Locator {
    return this.page.getByTestId("inspector-share");
  }

  /** Sets the selected node's weight in the inspector (typed, committed with Enter) and waits for the row to show it. */
  async setWeight(rowText: string, weight: number): Promise<void> {
    await this.inspectorWeight.fill(String(weight));
    await this.inspectorWeight.press("Enter");
    await expect(this.row(rowText).getByTestId("row-weight")).toHaveText(String(weight));
  }

  get lintPanel(): Locator {
    return this.page.getByTestId("lint-panel");
  }
  get lintItems(): Locator {
    return this.page.getByTestId("lint-item");
  }
  get lintEmpty(): Locator {
    return this.page.getByTestId("lint-empty");
  }
  get versionsPanel(): Locator {
    return this.page.getByTestId("versions-panel");
  }

  /** A sonner toast containing `text`. */
  toast(text: string | RegExp): Locator {
    return this.page.locator("[data-sonner-toast]").filter({ hasText: text });
  }
}
