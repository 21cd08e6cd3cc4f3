/**
 * What the UI benches (`bench/editor-ui.ts`, `bench/review-ui.ts`) share: the checks before
 * measuring, the CLI that fills a fresh embedded database before the studio opens it (PGlite has
 * one owner), the built studio (`next start`) on a fixed loopback port, Debian's Chromium and a
 * page signed in as the demo staff user. Every wait has a time limit, and the server's process
 * group is always killed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type CDPSession, type Page } from "@playwright/test";
import { STAFF, distDir, startStudio, type Studio } from "@/test/server/harness";
import { median, withTimeout } from "./figures";

const CHROMIUM = "/usr/bin/chromium";

async function listening(baseUrl: string): Promise<boolean> {
  try {
    await fetch(`${baseUrl}/signin`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the UI figures can be measured (a build, Chromium, a free port); if not, says why on a
 * `#` line. `figures`: the figures' names, for the hint to build; `what`: e.g. "editor UI figures".
 */
export async function canMeasureUi(opts: { figures: string; what: string; port: number }): Promise<boolean> {
  if (!fs.existsSync(path.join(process.cwd(), distDir(), "BUILD_ID"))) {
    console.log(`# no build found: run \`npm run build\` first for ${opts.figures}`);
    return false;
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`# ${CHROMIUM} not found: no ${opts.what}`);
    return false;
  }
  if (await listening(`http://127.0.0.1:${opts.port}`)) {
    console.log(`# port ${opts.port} is taken: no ${opts.what}`);
    return false;
  }
  return true;
}

/** `scripts/cli.ts args…` on the embedded database in `dataDir`; throws with its output when it fails. */
export function runCli(dataDir: string, args: string[], timeoutMs = 180_000): void {
  const result = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/cli.ts", ...args],
    {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      encoding: "utf8",
      timeout: timeoutMs,
    },
  );
  if (result.status !== 0)
    throw new Error(
      `${args.slice(0, 2).join(" ")} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`,
    );
}

/** Debian's Chromium, headless. */
export function launchChromium(): Promise<Browser> {
  return withTimeout(
    "chromium launch",
    60_000,
    chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    }),
  );
}

async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/signin`);
  await page.getByRole("textbox", { name: "Email" }).fill(STAFF.email);
  await page.locator('input[name="password"]:not([type="hidden"])').fill(STAFF.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByTestId("current-user").waitFor({ timeout: 30_000 });
}

/**
 * A page of a new browser context (`viewport`, 30 s default timeout) that runs `probe` in every
 * document it opens, signed in as the demo staff user.
 */
export async function newSignedInPage(
  browser: Browser,
  baseUrl: string,
  opts: { viewport: { width: number; height: number }; probe: () => void },
): Promise<Page> {
  const context = await browser.newContext({ viewport: opts.viewport });
  context.setDefaultTimeout(30_000);
  // tsx (esbuild, keepNames) wraps named functions in `__name(...)`: in-page code needs it too.
  await context.addInitScript({ content: "globalThis.__name ??= (fn) => fn;" });
  await context.addInitScript(opts.probe);
  const page = await context.newPage();
  await withTimeout("sign-in", 60_000, signIn(page, baseUrl));
  return page;
}

/**
 * Runs `work` against a fresh studio: a new data directory filled by `prepare` (the CLI), the
 * built studio on `port` over it, and Chromium. Afterwards the browser is closed, the studio's
 * process group killed and the data directory removed, whatever happened.
 */
export async function withStudioAndChromium<T>(
  opts: { port: number; dataDirPrefix: string; prepare: (dataDir: string) => void },
  work: (browser: Browser, baseUrl: string, studio: Studio) => Promise<T>,
): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), opts.dataDirPrefix));
  let studio: Studio | null = null;
  let browser: Browser | null = null;
  try {
    opts.prepare(dataDir);
    studio = await startStudio({ DATA_DIR: dataDir, DATABASE_URL: "" }, { port: opts.port });
    browser = await launchChromium();
    return await work(browser, studio.url, studio);
  } finally {
    await browser?.close().catch(() => undefined);
    await studio?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs `work` with the page's main thread profiled when BENCH_CPU_PROF names a folder: the V8 CPU
 * profile is written there as `<name>.cpuprofile` (open it in Chrome's DevTools, Performance tab).
 */
export async function withPageProfile<T>(page: Page, name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return work();
  if (process.env.BENCH_TRACE) {
    const browser = page.context().browser()!;
    fs.mkdirSync(dir, { recursive: true });
    await browser.startTracing(page, {
      path: path.join(dir, `${name}.trace.json`),
      categories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "blink.user_timing",
        "v8.execute",
        "toplevel",
      ],
    });
    try {
      return await work();
    } finally {
      await browser.stopTracing();
    }
  }
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  try {
    return await work();
  } finally {
    const { profile } = await cdp.send("Profiler.stop");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    console.log(`# ${name}: the page's CPU profile is in ${path.join(dir, `${name}.cpuprofile`)}`);
    await cdp.detach().catch(() => undefined);
  }
}

const meters = new WeakMap<Page, CDPSession>();

/**
 * The CPU time the page's main thread has spent on tasks in its current document, in ms
 * (Chromium's `TaskDuration` in thread time; it starts again with each document). Unlike the
 * wall-clock phases it leaves out the time the thread waited for a core, so a busy two-core machine
 * inflates it far less: the figure to compare when two builds differ by a few per cent.
 */
export async function mainThreadMs(page: Page): Promise<number> {
  let cdp = meters.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
    meters.set(page, cdp);
  }
  const { metrics } = await cdp.send("Performance.getMetrics");
  return (metrics.find((m) => m.name === "TaskDuration")?.value ?? NaN) * 1000;
}

/**
 * One line naming every request the page made before `untilMs` (ms from navigation start), with
 * when it started and ended and its handler's time (`Server-Timing: app`): what the page's own
 * request shared the server with while it opened. Runs in the page (`page.evaluate`).
 */
export function requestsBefore(untilMs: number): string {
  return (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
    .filter((e) => e.startTime < untilMs && !/\/_next\/static\//.test(e.name))
    .map((e) => {
      const app = e.serverTiming.find((t) => t.name === "app")?.duration;
      const url = new URL(e.name);
      return `${url.pathname}${url.search} ${e.startTime.toFixed(0)}→${e.responseEnd.toFixed(0)}${app === undefined ? "" : ` (app ${app.toFixed(0)})`}`;
    })
    .join(", ");
}

/** Where a page's open went, in ms from the start of the navigation (read in the page). */
export interface OpenPhases {
  html: number;
  dataStart: number;
  dataEnd: number;
  /** The data request's handler (`Server-Timing: app`). */
  server: number;
  bytes: number;
  parsed: number;
  model: number;
  rows: number;
  /** When the probe's click was dispatched (a late one waited behind the page's other work). */
  click: number;
  /** When the page showed the clicked node. */
  answered: number;
}

/**
 * Runs in the page (`page.evaluate(readOpenPhases, …)`): the document's arrival, the first request
 * whose URL matches `data` (a regular expression's source), the performance marks the page sets
 * when its data is parsed and its model built, and the probe's times for the rows and the click.
 */
export function readOpenPhases(args: {
  data: string;
  parsedMark: string;
  modelMark: string;
  rowsMs: number | null;
  clickMs: number | null;
  answeredMs: number | null;
}): OpenPhases {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
  const pattern = new RegExp(args.data);
  const data = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((e) =>
    pattern.test(e.name),
  );
  const mark = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
  return {
    html: nav.responseEnd,
    dataStart: data?.startTime ?? NaN,
    dataEnd: data?.responseEnd ?? NaN,
    server: data?.serverTiming.find((t) => t.name === "app")?.duration ?? NaN,
    bytes: data?.encodedBodySize ?? NaN,
    parsed: mark(args.parsedMark),
    model: mark(args.modelMark),
    rows: args.rowsMs ?? NaN,
    click: args.clickMs ?? NaN,
    answered: args.answeredMs ?? NaN,
  };
}

/** The `#` line of an open's phases: the median of each over the runs. `data`: what the page loads ("rows"). */
export function openPhasesLine(figure: string, data: string, phases: OpenPhases[]): string {
  const mid = (f: (p: OpenPhases) => number) => median(phases.map(f)).toFixed(0);
  return (
    `# ${figure} phases (medians, ms from navigation start): HTML received ${mid((p) => p.html)}, ${data} requested ${mid((p) => p.dataStart)}, ` +
    `received ${mid((p) => p.dataEnd)} (its handler ${mid((p) => p.server)} ms, ${mid((p) => p.bytes / 1024)} KiB), parsed ${mid((p) => p.parsed)}, ` +
    `model built ${mid((p) => p.model)}, rows shown ${mid((p) => p.rows)}, click sent ${mid((p) => p.click)}, answered ${mid((p) => p.answered)}`
  );
}
