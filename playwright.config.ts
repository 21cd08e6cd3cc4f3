import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { isProcessAlive } from "./db/data-dir-lock";

/**
 * End-to-end suite: Debian's Chromium headless shell (never a downloaded browser) against `next start` on
 * loopback, always on a fresh embedded PGlite database seeded with the demo paper and users.
 */

const PORT = Number(process.env.E2E_PORT || 3210);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// Playwright loads this file in the runner and again in each worker process. Only the runner
// (no TEST_WORKER_INDEX) owns the server and its data directory.
const isRunner = process.env.TEST_WORKER_INDEX === undefined;
const DATA_DIR_PREFIX = "rubric-studio-e2e-";
const DATA_DIR = path.join(os.tmpdir(), DATA_DIR_PREFIX + process.pid);

if (isRunner) {
  // Every run starts from scratch: migrations and the demo seed run on an empty directory.
  fs.rmSync(DATA_DIR, { force: true, recursive: true });
  removeDataDirsOfDeadRuns();
}

/** Data directories left by earlier runs whose process is gone (they are never reused). */
function removeDataDirsOfDeadRuns(): void {
  let names: string[];
  try {
    names = fs.readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(DATA_DIR_PREFIX)) continue;
    const pid = Number(name.slice(DATA_DIR_PREFIX.length));
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isProcessAlive(pid)) continue;
    fs.rmSync(path.join(os.tmpdir(), name), { force: true, recursive: true });
  }
}

// The package is an ES module, so the config has import.meta rather than __dirname.
const ROOT = path.dirname(fileURLToPath(import.meta.url));
const built = fs.existsSync(path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"));
// Idle keep-alive sockets stay open longer than any test: at Node's 5 s default the server may close
// one just as Playwright's API client (which, unlike a browser, does not retry) reuses it, and a
// request fails with ECONNRESET.
const start = `npx next start -H 127.0.0.1 -p ${PORT} --keepAliveTimeout 600000`;

// Debian's old headless shell (what Playwright itself runs headless), not the full browser: on the
// 2-core CI machine the full one in headless mode took twice its CPU for the same specs.
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium-headless-shell";
const traceMode = (process.env.E2E_TRACE ? process.env.E2E_TRACE === "1" : !process.env.CI)
  ? "retain-on-failure"
  : "off";

const DELETES_THE_DEMO = /demo-delete\.spec\.ts$/;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  // Two files at a time, each file's tests in order: every spec makes the data it changes (its own
  // papers, agents, evaluations), so no spec depends on another or on the order files run in.
  // Specs are independent (each makes its own data; deleting the demo is a project of its own that
  // runs last), so they may run side by side: E2E_WORKERS=2 on a machine with cores to spare. CI's
  // 2-core machine runs the server suite beside Playwright, and there 2 workers starved both (editor
  // specs hit their 30 s timeout with the load near 16), so the default stays 1.
  workers: Number(process.env.E2E_WORKERS) || 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  // A safety net, not a synchronisation: specs that make their own paper, members and rubric
  // before the scenario run near 30 s on CI's loaded 2-core machine (co-editing's mention test
  // timed out at 32 s with every step passing).
  timeout: 60_000,
  // A wait on a job (a reproduction on the embedded runner, a judge run) takes `timeout: 0`: the
  // test's timeout is its only bound. Jobs queue behind other specs' jobs and share CI's two cores
  // with the server suite, and a reproduction of a few seconds once took over a minute there.
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    headless: true,
    acceptDownloads: true,
    // A trace records a screencast and DOM snapshots of every test, kept only when it fails: on the
    // CI machine nobody opens it, and it took more than half of the browser's CPU, so CI records none
    // unless E2E_TRACE=1 asks.
    trace: traceMode,
    screenshot: "only-on-failure",
    // The studio honours it (app/globals.css): no spinner or skeleton repaints every frame of a test.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "studio", testIgnore: DELETES_THE_DEMO },
    // Deleting the demo takes away the seeded paper, users and gradings the other specs read, so it
    // runs once every other spec has finished.
    { name: "demo deleted", testMatch: DELETES_THE_DEMO, dependencies: ["studio"] },
  ],
  webServer: {
    command: built ? start : `npx next build && ${start}`,
    url: `${BASE_URL}/signin`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      DATA_DIR,
      // The e2e suite always runs on the embedded database, even when the shell points vitest at a
      // PostgreSQL server: the app treats an empty DATABASE_URL as unset.
      DATABASE_URL: "",
      // The studio starts its own runner (server/runners/embedded-runner.ts), which reaches it on PORT:
      // the submissions spec reproduces real submissions. E2E_RUNNER_BACKEND picks its backend
      // (sandbox where bubblewrap works, else local).
      PORT: String(PORT),
      EMBEDDED_RUNNER: "1",
      ...(process.env.E2E_RUNNER_BACKEND ? { EMBEDDED_RUNNER_BACKEND: process.env.E2E_RUNNER_BACKEND } : {}),
      ...(process.env.PAPERBENCH_DATA_DIR ? { PAPERBENCH_DATA_DIR: process.env.PAPERBENCH_DATA_DIR } : {}),
    },
  },
});
