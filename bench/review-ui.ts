/**
 * UI figures of the review page, measured in Debian's Chromium against `next start` on loopback
 * (a built studio, `npm run build`), on a fresh embedded database holding PaperBench's `pinn`
 * rubric and its human grading (`judge_eval/pinn/expected_result.json`, 1,963 leaves), imported by
 * the CLI, signed in as the demo staff user:
 *
 * - `review_open_pinn_ms`: from the start of the navigation to `/gradings/<id>` until the page is
 *   interactive: the graded tree's rows are shown and a click on a row has been answered (the leaf
 *   panel shows that node). Median of 5 runs after one warm-up. The page's default settings: rows
 *   wrap to two lines and show their distinguishing tail, math is rendered by KaTeX.
 * - `review_open_main_thread_ms`: the CPU time the page's main thread spent in that document by
 *   then (`mainThreadMs`), median of the same runs; no goal, the figure to compare between builds.
 * - `review_override_recompute_ms`: one override from the keystroke that commits it (Enter in the
 *   reason field) until the root score on screen changes (the ancestors and the root are
 *   recomputed in the browser, path only; the server confirms afterwards). Median of 20 overrides
 *   after 3 warm-ups, on the leaf with the largest share of the score (auto-advance off, so that
 *   every override is on that leaf).
 *
 * Both are timed inside the page (`performance.now()`, a MutationObserver), so that Playwright's
 * own round trips are not counted. Every wait has a time limit, and the server's process group is
 * always killed.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";
import type { ReviewPayload } from "@/lib/review/types";
import { REVIEW_SETTINGS_KEY } from "@/lib/review/settings";
import { median, report, withTimeout } from "./support/figures";
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

const PORT = 3690;
const BASE_URL = `http://127.0.0.1:${PORT}`;
const PAPER = "pinn";
const OPEN_RUNS = 5;
const OVERRIDES = 20;
const WARM_UP_OVERRIDES = 3;

/** pinn's rubric and its human grading, imported by the CLI before the server opens the database (PGlite has one owner). */
function importPinnGrading(dataDir: string): void {
  runCli(dataDir, ["rubric", "import", path.join(PAPERBENCH_DATA_DIR, "papers", PAPER)]);
  const graded = path.join(PAPERBENCH_DATA_DIR, "judge_eval", PAPER, "expected_result.json");
  runCli(dataDir, [
    "grading",
    "import",
    graded,
    "--paper",
    PAPER,
    "--agent",
    "PaperBench human expert",
    "--run",
    "1",
    "--human",
  ]);
}

declare global {
  interface Window {
    __benchReviewOpen?: {
      ms: number | null;
      key: string | null;
      error: string | null;
      rowsMs: number | null;
      clickMs: number | null;
    };
    __benchOverride?: { ms: number | null; paintMs: number | null; error: string | null };
  }
}

/**
 * Runs in every document the bench page opens: on a review page, as soon as the rows are shown,
 * it clicks a row other than the selected one (in the next task, as a user's click would come)
 * and notes the time (from the start of the navigation) at which the leaf panel shows that node.
 */
function openProbe(): void {
  if (!/^\/gradings\/[^/]+$/.test(location.pathname) || location.search) return;
  const state: NonNullable<Window["__benchReviewOpen"]> = {
    ms: null,
    key: null,
    error: null,
    rowsMs: null,
    clickMs: null,
  };
  window.__benchReviewOpen = state;
  let clicked = false;
  const check = () => {
    if (state.ms !== null) return true;
    if (!clicked) {
      const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="review-row"]')];
      const row = rows.slice(1).find((r) => !r.dataset.selected);
      if (rows.length < 3 || !row?.dataset.key) return false;
      clicked = true;
      state.key = row.dataset.key;
      state.rowsMs = performance.now();
      setTimeout(() => {
        state.clickMs = performance.now();
        (row.querySelector<HTMLElement>('[data-testid="row-text"]') ?? row).click();
      }, 0);
      return false;
    }
    if (document.querySelector(`[data-testid="leaf-panel"][data-key="${state.key}"]`)) {
      state.ms = performance.now();
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => {
    if (check()) observer.disconnect();
  });
  const begin = () => {
    observer.observe(document.documentElement, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ["data-key"],
    });
    if (check()) observer.disconnect();
  };
  if (document.documentElement) begin();
  else document.addEventListener("readystatechange", begin, { once: true });
  setTimeout(() => {
    if (state.ms === null) {
      state.error = "the review page did not become interactive within 30 s";
      observer.disconnect();
    }
  }, 30_000);
}

async function openFigures(
  page: Page,
  gradingId: string,
): Promise<{ inPage: number[]; outside: number[]; mainThread: number[] }> {
  const inPage: number[] = [];
  const outside: number[] = [];
  const mainThread: number[] = [];
  const phases: OpenPhases[] = [];
  for (let run = 0; run <= OPEN_RUNS; run++) {
    await page.goto("about:blank");
    const started = performance.now();
    await page.goto(`${BASE_URL}/gradings/${gradingId}`, { waitUntil: "commit", timeout: 30_000 });
    await page.waitForFunction(
      () =>
        window.__benchReviewOpen && (window.__benchReviewOpen.ms !== null || window.__benchReviewOpen.error !== null),
      null,
      { timeout: 35_000, polling: 10 },
    );
    const wall = performance.now() - started;
    const state = await page.evaluate(() => window.__benchReviewOpen!);
    if (state.error || state.ms === null) throw new Error(state.error ?? "no time");
    if (run === 0) {
      console.log(`# review_open_pinn warm-up: ${state.ms.toFixed(1)} ms`);
      continue;
    }
    inPage.push(state.ms);
    outside.push(wall);
    mainThread.push(await mainThreadMs(page));
    if (run === OPEN_RUNS)
      console.log(`# review_open_pinn requests (last run): ${await page.evaluate(requestsBefore, state.ms)}`);
    phases.push(
      await page.evaluate(readOpenPhases, {
        data: "/api/gradings/[^/]+$",
        parsedMark: "review:data",
        modelMark: "review:model",
        rowsMs: state.rowsMs,
        clickMs: state.clickMs,
        answeredMs: state.ms,
      }),
    );
  }
  // The figure is taken with the page's defaults: rows wrapping to two lines, math rendered.
  const rows = await page.evaluate(() => ({
    height: document.querySelector<HTMLElement>('[data-testid="review-row"]')?.offsetHeight ?? 0,
    math: document.querySelectorAll('[data-testid="leaf-panel"] .katex, [data-testid="review-tree"] .katex').length,
  }));
  console.log(
    `# review_open_pinn with rows ${rows.height} px high (two lines), ${rows.math} formulas rendered on screen`,
  );
  console.log(openPhasesLine("review_open_pinn", "review data", phases));
  return { inPage, outside, mainThread };
}

/** The leaf with the largest share of the root score (weights only), so every override shows in the root's text. */
function heaviestLeaf(payload: ReviewPayload): string {
  const share = new Map<string, number>();
  const total = new Map<string, number>();
  for (const n of payload.nodes) if (n.parentKey) total.set(n.parentKey, (total.get(n.parentKey) ?? 0) + n.weight);
  let best: { key: string; share: number } | null = null;
  const leaves = new Set(payload.leaves.map((l) => l.key));
  for (const n of payload.nodes) {
    const s = n.parentKey === null ? 1 : ((share.get(n.parentKey) ?? 0) * n.weight) / (total.get(n.parentKey) || 1);
    share.set(n.key, s);
    if (leaves.has(n.key) && (!best || s > best.share)) best = { key: n.key, share: s };
  }
  if (!best) throw new Error("the grading has no leaf");
  return best.key;
}

/**
 * Arms the in-page timer of one override: the clock starts at the Enter keydown, stops at the
 * first DOM change where the root score (its exact value, `data-score`) differs from before; the
 * next animation frame after that is noted too (the change painted).
 */
async function armOverride(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state: NonNullable<Window["__benchOverride"]> = { ms: null, paintMs: null, error: null };
    window.__benchOverride = state;
    const rootEl = () => document.querySelector<HTMLElement>('[data-testid="root-score"]');
    const before = rootEl()?.dataset.score ?? null;
    let t0: number | null = null;
    let observer: MutationObserver | null = null;
    const check = () => {
      if (t0 === null || state.ms !== null) return;
      const now = rootEl()?.dataset.score ?? null;
      if (now !== null && now !== before) {
        state.ms = performance.now() - t0;
        observer?.disconnect();
        const start = t0;
        requestAnimationFrame(() => (state.paintMs = performance.now() - start));
      }
    };
    window.addEventListener(
      "keydown",
      (e) => {
        if (e.key !== "Enter") return;
        t0 = performance.now();
        observer = new MutationObserver(check);
        observer.observe(document.body, {
          childList: true,
          subtree: true,
          characterData: true,
          attributes: true,
          attributeFilter: ["data-score"],
        });
      },
      { capture: true, once: true },
    );
    setTimeout(() => {
      if (state.ms === null) {
        state.error = "the root score did not change within 10 s";
        observer?.disconnect();
      }
    }, 10_000);
  });
}

async function overrideFigures(page: Page, gradingId: string): Promise<{ dom: number[]; paint: number[] }> {
  const res = await page.request.get(`${BASE_URL}/api/gradings/${gradingId}`);
  if (!res.ok()) throw new Error(`GET review: ${res.status()}`);
  const key = heaviestLeaf((await res.json()) as ReviewPayload);
  await page.evaluate(
    (storageKey) => localStorage.setItem(storageKey, JSON.stringify({ autoAdvance: false })),
    REVIEW_SETTINGS_KEY,
  );
  await page.goto(`${BASE_URL}/gradings/${gradingId}?leaf=${key}`, { timeout: 30_000 });
  await page.locator(`[data-testid="leaf-panel"][data-key="${key}"]`).waitFor({ timeout: 30_000 });
  const effective = page.getByTestId("leaf-effective-score").locator("[data-score]");
  const reason = page.getByTestId("override-reason");
  const times = { dom: [] as number[], paint: [] as number[] };
  for (let i = 0; i < WARM_UP_OVERRIDES + OVERRIDES; i++) {
    const current = Number(await effective.getAttribute("data-score", { timeout: 10_000 }));
    await page.keyboard.press(String(current === 1 ? 0 : 1));
    await reason.waitFor({ state: "visible", timeout: 10_000 });
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "override-reason", null, {
      timeout: 10_000,
    });
    await reason.fill(`bench override ${i}`);
    await armOverride(page);
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      () =>
        window.__benchOverride && (window.__benchOverride.paintMs !== null || window.__benchOverride.error !== null),
      null,
      {
        timeout: 15_000,
        polling: 10,
      },
    );
    const state = await page.evaluate(() => window.__benchOverride!);
    if (state.error || state.ms === null) throw new Error(state.error ?? "no time");
    // The server confirmed it before the next one.
    await page
      .getByTestId("review-save-state")
      .filter({ hasText: /^Saved$/ })
      .waitFor({ timeout: 10_000 });
    if (i >= WARM_UP_OVERRIDES) {
      times.dom.push(state.ms);
      if (state.paintMs !== null) times.paint.push(state.paintMs);
    }
  }
  return times;
}

export async function reviewUiFigures(): Promise<void> {
  if (
    !(await canMeasureUi({
      figures: "review_open_pinn_ms and review_override_recompute_ms",
      what: "review UI figures",
      port: PORT,
    }))
  )
    return;
  if (!fs.existsSync(path.join(PAPERBENCH_DATA_DIR, "judge_eval", PAPER, "expected_result.json"))) {
    console.log(`# no PaperBench data in ${PAPERBENCH_DATA_DIR}: no review UI figures`);
    return;
  }
  await withStudioAndChromium(
    { port: PORT, dataDirPrefix: "rubric-studio-bench-review-", prepare: importPinnGrading },
    async (browser) => {
      const page = await newSignedInPage(browser, BASE_URL, {
        viewport: { width: 1600, height: 950 },
        probe: openProbe,
      });
      const list = await page.request.get(`${BASE_URL}/api/papers/${PAPER}/gradings`);
      const grading = ((await list.json()) as { gradings: { id: string; leafCount: number }[] }).gradings[0];
      if (!grading) throw new Error("the pinn grading was not imported");
      console.log(`# review bench: pinn human grading ${grading.id}, ${grading.leafCount} leaves`);

      const open = await withTimeout(
        "review_open_pinn",
        300_000,
        withPageProfile(page, "review-open", () => openFigures(page, grading.id)),
      );
      report("review_open_pinn_ms", median(open.inPage), "ms");
      report("review_open_main_thread_ms", median(open.mainThread), "ms");
      console.log(
        `# review_open_pinn runs (navigation start → rows shown and a click answered, in page): ${open.inPage.map((x) => x.toFixed(0)).join(", ")} ms; ` +
          `from page.goto() as Playwright sees it: median ${median(open.outside).toFixed(1)} ms`,
      );

      const overrides = await withTimeout("review_override_recompute", 300_000, overrideFigures(page, grading.id));
      report("review_override_recompute_ms", median(overrides.dom), "ms");
      console.log(
        `# review_override_recompute (Enter → root score changed in the DOM): median ${median(overrides.dom).toFixed(1)} ms, ` +
          `max ${Math.max(...overrides.dom).toFixed(1)} ms over ${overrides.dom.length} overrides; to the next frame: median ${median(overrides.paint).toFixed(1)} ms`,
      );
    },
  );
}

// Run alone: `npx tsx --conditions=react-server bench/review-ui.ts`.
if (import.meta.url === `file://${process.argv[1]}`) await reviewUiFigures();
