/**
 * `auth_oversized_body_peak_mb`: how much the studio's memory grows while four 300 MB bodies are
 * posted at once to `/api/auth/callback/credentials` (no sign-in needed) and refused. Goal < 50 MB
 * (it was 2.7 GB when the auth routes read bodies whole).
 *
 * The built studio (`next start`, NEXT_DIST_DIR or `.next`) runs on a fresh PGlite database; the
 * bodies are made on the fly, chunked (no Content-Length, so the size is only known by reading),
 * and each stops as soon as its answer (413) arrives. The server's resident memory (VmRSS of the
 * `next start` process and its children) is sampled every 50 ms from just before the posts until
 * a second after the last answer; the figure is its peak minus its value before.
 *
 * Run alone: `tsx --conditions=react-server bench/oversized-body.ts` (or within `npm run bench`).
 */
import fs from "node:fs";
import { assertBuilt, prepareDatabase, sleep, startStudio } from "@/test/server/harness";
import { MiB, streamBody } from "@/test/server/stream-body";
import { report } from "./support/figures";

const BODIES = 4;
const BODY_BYTES = 300 * MiB;
const SAMPLE_MS = 50;

/** The process and all its descendants. */
function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    for (const task of safeReaddir(`/proc/${pids[i]}/task`)) {
      const children = safeRead(`/proc/${pids[i]}/task/${task}/children`);
      for (const child of children.split(/\s+/).filter(Boolean)) pids.push(Number(child));
    }
  }
  return pids;
}

/** Resident memory of `pid` and its descendants, in bytes (VmRSS of /proc/<pid>/status). */
function rssBytes(pid: number): number {
  let total = 0;
  for (const p of processTree(pid)) {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(safeRead(`/proc/${p}/status`))?.[1];
    if (kb) total += Number(kb) * 1024;
  }
  return total;
}

const safeRead = (file: string) => {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return ""; // the process ended meanwhile
  }
};
const safeReaddir = (dir: string) => {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
};

const post = (url: string, total: number) =>
  streamBody(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    total,
  });

export async function oversizedBodyFigures(): Promise<void> {
  assertBuilt();
  const db = await prepareDatabase("pglite", 0, "oversized-body");
  const studio = await startStudio(db.env);
  try {
    // Warm-up: the auth route is loaded and has refused a body once before the clock starts.
    const warm = await post(studio.url, 4 * MiB);
    if (warm.status !== 413)
      throw new Error(`the warm-up post was answered ${warm.status}, not 413: ${warm.body.slice(0, 300)}`);
    await sleep(500);

    const before = rssBytes(studio.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(studio.pid))), SAMPLE_MS);
    try {
      const answers = await Promise.all(Array.from({ length: BODIES }, () => post(studio.url, BODY_BYTES)));
      await sleep(1_000); // the memory of work still finishing after the answers counts too
      const statuses = answers.map((a) => a.status);
      if (statuses.some((s) => s !== 413))
        throw new Error(`the oversized posts were answered ${statuses.join(", ")}, not 413`);
      const sent = answers.reduce((n, a) => n + a.sent, 0);
      console.log(
        `# oversized bodies: ${BODIES} × ${BODY_BYTES / MiB} MiB refused after ${(sent / MiB).toFixed(1)} MiB sent in all; RSS ${(before / MiB).toFixed(0)} MiB before`,
      );
    } finally {
      clearInterval(sampler);
    }
    report("auth_oversized_body_peak_mb", (peak - before) / MiB, "MB");
  } finally {
    await studio.stop();
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await oversizedBodyFigures();
}
