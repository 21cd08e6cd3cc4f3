/**
 * UI figures of the rubric editor, measured in Debian's Chromium against `next start` on loopback
 * (a built studio, `npm run build`), on a fresh embedded database holding PaperBench's `pinn`
 * rubric (2,551 nodes), signed in as the demo staff user:
 *
 * - `editor_open_pinn_ms`: from the start of the navigation to `/papers/pinn/rubric` until the
 *   tree is interactive: rows are shown and a click on a row has selected it (the inspector shows
 *   that node). Median of 5 runs after one warm-up.
 * - `editor_open_main_thread_ms`: the CPU time the page's main thread spent in that document by then
 *   (`mainThreadMs`), median of the same runs. No goal: the figure to compare between two builds,
 *   since waiting for a core on a busy machine does not inflate it as it does the wall-clock one.
 * - `editor_edit_roundtrip_p95_ms`: one edit from the keystroke that commits it (Enter in the
 *   inspector's weight field) until the row shows the new weight and the save state says "Saved"
 *   (the server acknowledged the operation). p95 of 40 edits after 3 warm-ups.
 * - `editor_edit_page_cpu_ms`, `editor_edit_studio_cpu_ms`: the CPU time per measured edit of the
 *   page's main thread (the bench's own typing included) and of the studio's processes. No goal:
 *   the figures to compare between two builds on a busy machine, where the round trip waits for
 *   cores the page, the studio and the browser share.
 *
 * Both are timed inside the page (`performance.now()` and a MutationObserver: every change they
 * wait for is a change of the DOM), so that Playwright's own round trips are not counted, and the
 * edit's wait is one call the page answers (no polling, no frame loop: both added work to the page
 * being measured). Every wait has a time limit, and the server's
 * process group is always killed.
 */
import path from "node:path";
import type { Page } from "@playwright/test";
import { PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";
import { groupCpuSeconds } from "./support/cpu";
import { median, percentile, report, withTimeout } from "./support/figures";
import {
  canMeasureUi,
  newSignedInPage,
  openPhasesLine,
  readOpenPhases,
  requestsBefore,
  runCli,
  mainThreadMs,
  withPageProfile,
  withStudioAndChromium,
  type OpenPhases,
} from "./support/ui";

const PORT = 3295;
const BASE_URL = `http://127.0.0.1:${PORT}`;
const PAPER = "pinn";
const OPEN_RUNS = 5;
const EDITS = 40;
const WARM_UP_EDITS = 3;

declare global {
  interface Window {
    __benchOpen?: {
      ms: number | null;
      rowsMs: number | null;
      clickMs: number | null;
      key: string | null;
      error: string | null;
    };
    __benchEdit?: {
      ms: number | null;
      shownMs: number | null;
      serverMs: number | null;
      handlerMs: number | null;
      sentMs: number | null;
      answeredMs: number | null;
      error: string | null;
      /** Resolves once `ms` or `error` is set: what the bench waits on (one call, no polling in the page). */
      done: Promise<void>;
    };
  }
}

/**
 * Runs in every document the bench page opens: on the editor, as soon as the rows are shown, it
 * clicks the root's first child (in the next task, as a user's click would come) and notes the time
 * (from the start of the navigation) at which the inspector shows that node.
 */
function openProbe(): void {
  if (!/\/papers\/[^/]+\/rubric$/.test(location.pathname)) return;
  const state: NonNullable<Window["__benchOpen"]> = { ms: null, rowsMs: null, clickMs: null, key: null, error: null };
  window.__benchOpen = state;
  let clicked = false;
  const check = () => {
    if (state.ms !== null) return true;
    if (!clicked) {
      const rows = document.querySelectorAll<HTMLElement>('[data-testid="tree-row"]');
      if (rows.length < 2) return false;
      const row = rows[1];
      const key = row.dataset.key ?? null;
      if (!key) return false;
      clicked = true;
      state.key = key;
      state.rowsMs = performance.now();
      setTimeout(() => {
        state.clickMs = performance.now();
        (row.querySelector<HTMLElement>('[data-testid="row-text"]') ?? row).click();
      }, 0);
      return false;
    }
    if (document.querySelector(`[data-testid="inspector"][data-key="${state.key}"]`)) {
      state.ms = performance.now();
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => {
    if (check()) observer.disconnect();
  });
  const begin = () => {
    observer.observe(document.documentElement, { childList: true, subtree: true });
    if (check()) observer.disconnect();
  };
  if (document.documentElement) begin();
  else document.addEventListener("readystatechange", begin, { once: true });
  setTimeout(() => {
    if (state.ms === null) {
      state.error = "the tree did not become interactive within 30 s";
      observer.disconnect();
    }
  }, 30_000);
}

async function openFigures(page: Page): Promise<{ inPage: number[]; outside: number[]; mainThread: number[] }> {
  const inPage: number[] = [];
  const outside: number[] = [];
  const mainThread: number[] = [];
  const phases: OpenPhases[] = [];
  for (let run = 0; run <= OPEN_RUNS; run++) {
    await page.goto("about:blank");
    const started = performance.now();
    await page.goto(`${BASE_URL}/papers/${PAPER}/rubric`, { waitUntil: "commit", timeout: 30_000 });
    await page.waitForFunction(
      () => window.__benchOpen && (window.__benchOpen.ms !== null || window.__benchOpen.error !== null),
      null,
      {
        timeout: 35_000,
        polling: 10,
      },
    );
    const wall = performance.now() - started;
    const state = await page.evaluate(() => window.__benchOpen!);
    if (state.error || state.ms === null) throw new Error(state.error ?? "no time");
    if (run === 0) {
      console.log(`# editor_open_pinn warm-up: ${state.ms.toFixed(1)} ms`);
      continue;
    }
    inPage.push(state.ms);
    outside.push(wall);
    mainThread.push(await mainThreadMs(page));
    if (run === OPEN_RUNS)
      console.log(`# editor_open_pinn requests (last run): ${await page.evaluate(requestsBefore, state.ms)}`);
    phases.push(
      await page.evaluate(readOpenPhases, {
        data: "/rubric/nodes$",
        parsedMark: "editor:data",
        modelMark: "editor:model",
        rowsMs: state.rowsMs,
        clickMs: state.clickMs,
        answeredMs: state.ms,
      }),
    );
  }
  console.log(openPhasesLine("editor_open_pinn", "rows", phases));
  return { inPage, outside, mainThread };
}

/** Selects the first leaf of the rubric (opening its ancestors) and returns its key. */
async function selectFirstLeaf(page: Page): Promise<string> {
  const res = await page.request.get(`${BASE_URL}/api/papers/${PAPER}/rubric/nodes`);
  if (!res.ok()) throw new Error(`GET nodes: ${res.status()}`);
  const { nodes } = (await res.json()) as { nodes: { key: string; parentKey: string | null; position: string }[] };
  const children = new Map<string | null, typeof nodes>();
  for (const n of nodes) children.set(n.parentKey, [...(children.get(n.parentKey) ?? []), n]);
  const order = (xs: typeof nodes) =>
    [...xs].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.key < b.key ? -1 : 1));
  const path: string[] = [];
  let at = order(children.get(null) ?? [])[0];
  while (at && (children.get(at.key)?.length ?? 0) > 0) {
    path.push(at.key);
    at = order(children.get(at.key)!)[0];
  }
  if (!at) throw new Error("pinn has no leaf");
  // The root and its children are open at first; open the rest of the path.
  for (const key of path.slice(1)) {
    const expand = page.locator(`[data-testid="tree-row"][data-key="${key}"] button[aria-label="Expand"]`);
    if (await expand.count()) await expand.click({ timeout: 10_000 });
  }
  await page
    .locator(`[data-testid="tree-row"][data-key="${at.key}"] [data-testid="row-text"]`)
    .click({ timeout: 10_000 });
  await page.locator(`[data-testid="inspector"][data-key="${at.key}"]`).waitFor({ timeout: 10_000 });
  return at.key;
}

/**
 * Arms the in-page timer of one edit: the clock starts at the Enter keydown, stops at the first
 * DOM change where the row shows `value` and the save state says "Saved" after having
 * said something else (the change was sent and acknowledged).
 */
async function armEdit(page: Page, key: string, value: string): Promise<void> {
  await page.evaluate(
    ({ key, value }) => {
      let finish!: () => void;
      const state: NonNullable<Window["__benchEdit"]> = {
        ms: null,
        shownMs: null,
        serverMs: null,
        handlerMs: null,
        sentMs: null,
        answeredMs: null,
        error: null,
        done: new Promise<void>((resolve) => (finish = resolve)),
      };
      window.__benchEdit = state;
      let t0: number | null = null;
      let sawPending = false;
      let observer: MutationObserver | null = null;
      const weightOf = () =>
        document.querySelector(`[data-testid="tree-row"][data-key="${key}"] [data-testid="row-weight"]`)?.textContent ??
        null;
      const saveText = () => document.querySelector('[data-testid="save-state"]')?.textContent ?? "";
      const check = () => {
        const start = t0;
        if (start === null || state.ms !== null || state.error !== null) return;
        const now = performance.now();
        if (saveText() !== "Saved") sawPending = true;
        if (state.shownMs === null && weightOf() === value) state.shownMs = now - start;
        if (sawPending && saveText() === "Saved" && weightOf() === value) {
          state.ms = now - start;
          observer?.disconnect();
          // The operation's request as the browser timed it (diagnostics only).
          const posts = performance
            .getEntriesByType("resource")
            .filter(
              (e) => e.name.endsWith("/rubric/operations") && e.startTime >= start,
            ) as PerformanceResourceTiming[];
          const last = posts.at(-1);
          if (last) {
            state.serverMs = last.responseEnd - last.startTime;
            state.handlerMs = last.serverTiming.find((t) => t.name === "app")?.duration ?? null;
            state.sentMs = last.startTime - start;
            state.answeredMs = last.responseEnd - start;
          }
          finish();
        }
      };
      window.addEventListener(
        "keydown",
        (e) => {
          if (e.key !== "Enter") return;
          t0 = performance.now();
          if (weightOf() === value) {
            state.error = "the row showed the new weight before Enter (the field's typing timer fired first)";
            finish();
            return;
          }
          observer = new MutationObserver(check);
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        },
        { capture: true, once: true },
      );
      setTimeout(() => {
        if (state.ms === null && state.error === null) {
          state.error = "the edit was not saved and shown within 10 s";
          observer?.disconnect();
          finish();
        }
      }, 10_000);
    },
    { key, value },
  );
}

interface EditTimes {
  /** CPU per measured edit (ms): the page's main thread, and the studio's processes. */
  pageCpuMs: number;
  studioCpuMs: number;
  total: number[];
  shown: number[];
  request: number[];
  handler: number[];
  sent: number[];
  answered: number[];
}

async function editFigures(page: Page, studioPid: number): Promise<EditTimes> {
  await page.goto(`${BASE_URL}/papers/${PAPER}/rubric`, { timeout: 30_000 });
  await page.locator('[data-testid="tree-row"]').first().waitFor({ timeout: 30_000 });
  const key = await selectFirstLeaf(page);
  const weight = page.getByTestId("inspector-weight");
  const original = await weight.inputValue();
  const times: EditTimes = {
    pageCpuMs: NaN,
    studioCpuMs: NaN,
    total: [],
    shown: [],
    request: [],
    handler: [],
    sent: [],
    answered: [],
  };
  let skipped = 0;
  // CPU from the first measured edit on, per edit tried (a retried one included).
  let cpuFrom: { page: number; studio: number } | null = null;
  let tried = 0;
  for (let i = 0; i < WARM_UP_EDITS + EDITS; i++) {
    if (i === WARM_UP_EDITS) cpuFrom ??= { page: await mainThreadMs(page), studio: groupCpuSeconds(studioPid) * 1000 };
    if (cpuFrom) tried++;
    // Alternate between two weights that differ from the original one.
    const value = String(i % 2 === 0 ? 7 : 3);
    await weight.fill(value, { timeout: 10_000 });
    await armEdit(page, key, value);
    await weight.press("Enter", { timeout: 10_000 });
    // One call that the page answers when the edit is timed: polling from here (a function run in
    // the page every 20 ms) added work to the page and the bench's process during the edits.
    const state = await withTimeout(
      "one edit",
      15_000,
      page.evaluate(async () => {
        await window.__benchEdit!.done;
        const { done: _, ...times } = window.__benchEdit!;
        return times;
      }),
    );
    if (state.error?.startsWith("the row showed")) {
      skipped++;
      i--;
      if (skipped > 10) throw new Error(state.error);
      continue;
    }
    if (state.error || state.ms === null) throw new Error(state.error ?? "no time");
    if (i >= WARM_UP_EDITS) {
      times.total.push(state.ms);
      if (state.shownMs !== null) times.shown.push(state.shownMs);
      if (state.serverMs !== null) times.request.push(state.serverMs);
      if (state.handlerMs !== null) times.handler.push(state.handlerMs);
      if (state.sentMs !== null) times.sent.push(state.sentMs);
      if (state.answeredMs !== null) times.answered.push(state.answeredMs);
    }
  }
  if (cpuFrom) {
    times.pageCpuMs = ((await mainThreadMs(page)) - cpuFrom.page) / tried;
    times.studioCpuMs = (groupCpuSeconds(studioPid) * 1000 - cpuFrom.studio) / tried;
  }
  if (skipped)
    console.log(
      `# editor_edit_roundtrip: ${skipped} edit(s) retried (the weight field's typing timer fired before Enter)`,
    );
  // Put the original weight back (the data directory is thrown away anyway).
  await weight.fill(original);
  await weight.press("Enter");
  await page
    .getByTestId("save-state")
    .filter({ hasText: /^Saved$/ })
    .waitFor({ timeout: 10_000 });
  return times;
}

export async function editorUiFigures(): Promise<void> {
  if (
    !(await canMeasureUi({
      figures: "editor_open_pinn_ms and editor_edit_roundtrip_p95_ms",
      what: "editor UI figures",
      port: PORT,
    }))
  )
    return;
  const prepare = (dataDir: string) =>
    runCli(dataDir, ["rubric", "import", path.join(PAPERBENCH_DATA_DIR, "papers", PAPER)], 120_000);
  const bench = { port: PORT, dataDirPrefix: "rubric-studio-bench-ui-", prepare };
  await withStudioAndChromium(bench, async (browser, _baseUrl, studio) => {
    const page = await newSignedInPage(browser, BASE_URL, { viewport: { width: 1440, height: 900 }, probe: openProbe });

    const open = await withTimeout(
      "editor_open_pinn",
      300_000,
      withPageProfile(page, "editor-open", () => openFigures(page)),
    );
    report("editor_open_pinn_ms", median(open.inPage), "ms");
    report("editor_open_main_thread_ms", median(open.mainThread), "ms");
    console.log(
      `# editor_open_pinn runs (navigation start → rows shown and a click answered, in page): ${open.inPage.map((x) => x.toFixed(0)).join(", ")} ms; ` +
        `from page.goto() as Playwright sees it: median ${median(open.outside).toFixed(1)} ms`,
    );

    const edits = await withTimeout(
      "editor_edit_roundtrip",
      300_000,
      withPageProfile(page, "editor-edits", () => editFigures(page, studio.pid)),
    );
    report("editor_edit_roundtrip_p95_ms", percentile(edits.total, 95), "ms");
    report("editor_edit_page_cpu_ms", edits.pageCpuMs, "ms");
    report("editor_edit_studio_cpu_ms", edits.studioCpuMs, "ms");
    const ms = (xs: number[]) => (xs.length ? `${median(xs).toFixed(1)} ms` : "n/a");
    console.log(
      `# editor_edit_roundtrip: median ${ms(edits.total)}, min ${Math.min(...edits.total).toFixed(1)} ms, max ${Math.max(...edits.total).toFixed(1)} ms over ${edits.total.length} edits; ` +
        `of which: row shows the new weight (optimistic) median ${ms(edits.shown)}, POST …/operations as timed by the browser median ${ms(edits.request)} (its handler ${ms(edits.handler)}); ` +
        `from Enter: request sent ${ms(edits.sent)}, answered ${ms(edits.answered)}, saved shown ${ms(edits.total)}`,
    );
  });
}
