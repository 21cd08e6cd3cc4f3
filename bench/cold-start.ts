/**
 * Start-up figures: from `npm start` to the first 200 on `/`, on a fresh data directory (migrate +
 * seed: `cold_start_s`) and again on the data it left (`cold_start_existing_data_s`). Needs a
 * build (NEXT_DIST_DIR, default `.next`). Run alone: `npx tsx --conditions=react-server bench/cold-start.ts`.
 *
 * The second start must not race the first one's shutdown: `npm` exits at once on SIGTERM while
 * Next.js still holds the embedded database's lock, and a start that finds the lock held refuses
 * to open it. So each studio is waited for until every process it started is gone (a zombie,
 * dead but not yet reaped, counts as gone) and the lock is released.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isLockHolderAlive } from "@/db/data-dir-lock";
import { report } from "./support/figures";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether a process of group `pgid` still runs (zombies do not count). Linux /proc, else signal 0. */
function groupRunning(pgid: number): boolean {
  if (!fs.existsSync("/proc/self/stat")) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // After "(comm) ": state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}

/** Whether the embedded database in `dataDir` is locked by a process that can still use it. */
function lockHeld(dataDir: string): boolean {
  try {
    const holder = JSON.parse(fs.readFileSync(path.join(dataDir, "pglite.lock"), "utf8")) as { pid?: number };
    return typeof holder.pid === "number" && isLockHolderAlive(holder.pid);
  } catch {
    return false; // no lock file (or one being written, which a start handles)
  }
}

async function until(what: string, ms: number, check: () => boolean): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(50);
  }
}

/** Seconds from `npm start` to the first 200 on `/`; the studio is stopped and gone when this returns. */
async function coldStart(dataDir: string, port: number): Promise<number> {
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", PORT: String(port) },
    stdio: "ignore",
    detached: true, // its own process group: npm, the shell and Next.js are stopped together
  });
  const pgid = child.pid!;
  let exited = false;
  child.once("exit", () => (exited = true));
  try {
    for (;;) {
      if (performance.now() - started > 60_000) throw new Error("the studio did not answer within 60 s");
      if (exited && !groupRunning(pgid)) throw new Error("the studio exited before answering");
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        if (res.status === 200) return (performance.now() - started) / 1000;
      } catch {
        // Not listening yet.
      }
      await sleep(50);
    }
  } finally {
    try {
      process.kill(-pgid, "SIGTERM");
    } catch {
      // ESRCH: the whole group has ended already.
    }
    await until("the studio to stop", 30_000, () => !groupRunning(pgid) && !lockHeld(dataDir));
  }
}

export async function coldStartFigures(): Promise<void> {
  if (!fs.existsSync(path.join(process.cwd(), process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
    console.log("# no build found: run `npm run build` first for cold_start_s");
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-studio-bench-start-"));
  try {
    report("cold_start_s", await coldStart(dataDir, 3290), "s");
    report("cold_start_existing_data_s", await coldStart(dataDir, 3291), "s");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await coldStartFigures();
