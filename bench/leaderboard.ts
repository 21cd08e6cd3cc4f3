/**
 * Leaderboard figures, against the built studio (`next start`, NEXT_DIST_DIR or `.next`) on a
 * scratch PostgreSQL database (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 * 50 agents × 20 papers × 10 runs = 10,000 gradings, written with bulk SQL (not the import path).
 *
 * - `leaderboard_p95_ms`: 20 concurrent keep-alive connections, each sending GET /api/leaderboard
 *   one after another for 5 s, signed out; p95 of the response times. Goal < 200 ms.
 * - `leaderboard_page_p95_ms`: the same for the page (`GET /leaderboard`, server-rendered HTML), asked
 *   for as a browser does (`Accept: text/html`): signed-out visitors get a copy at most
 *   `LEADERBOARD_MAX_STALE_MS` old (`proxy.ts`), so most requests render nothing.
 * - `leaderboard_page_render_p95_ms`: the same page asked for without `Accept: text/html`, which the
 *   proxy never answers from a copy: every request renders, as every signed-in member's does.
 * - `leaderboard_recompute_ms`: median time of GET /api/leaderboard after a grading's score changed
 *   (the board is read again and recomputed), one request at a time.
 *
 * Run alone: `tsx --conditions=react-server bench/leaderboard.ts` (or within `npm run bench`).
 */
import http from "node:http";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { insertSyntheticGradings, type SyntheticGrading } from "@/db/leaderboard-fixture.testutil";
import { LEADERBOARD_MAX_STALE_MS } from "@/lib/leaderboard/freshness";
import { readSplits } from "@/server/papers/data-splits";
import { mulberry32 } from "@/lib/random";
import { PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";
import { createTestPostgresDatabase } from "@/test/databases";
import { assertBuilt, freePort, startStudio, type Studio } from "@/test/server/harness";
import { groupCpuSeconds } from "./support/cpu";
import { percentile, report } from "./support/figures";

const AGENTS = 50;
/** What a browser sends when it opens a page (the proxy keeps copies of signed-out documents only). */
const AS_BROWSER = { accept: "text/html,application/xhtml+xml" };
const PAPERS = 20;
const RUNS = 10;
const CONNECTIONS = 20;
const SECONDS = 5;
const PORT_MIN = 3700;
const PORT_MAX = 3799;

/** One GET over a keep-alive agent: status, body length and milliseconds. */
function get(
  agent: http.Agent,
  url: URL,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number; ms: number; body: string; serverMs: number; copy: boolean }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const serverMs = Number(/app;dur=([\d.]+)/.exec(String(res.headers["server-timing"] ?? ""))?.[1] ?? NaN);
        resolve({
          status: res.statusCode ?? 0,
          bytes: body.length,
          ms: performance.now() - started,
          body,
          serverMs,
          copy: res.headers["x-page-cache"] === "hit",
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/**
 * `connections` clients, each with its own connection, requesting `path` back to back for `seconds`:
 * the response times, with the handlers' (`server`) and how many answers were copies (`copies`).
 */
async function load(
  studio: Studio,
  path: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<number[] & { server?: number[]; copies?: number }> {
  const url = new URL(path, studio.url);
  const times: number[] & { server?: number[]; copies?: number } = [];
  const server: number[] = (times.server = []);
  times.copies = 0;
  const deadline = performance.now() + seconds * 1000;
  const agents = Array.from({ length: connections }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    await Promise.all(
      agents.map(async (agent) => {
        while (performance.now() < deadline) {
          const res = await get(agent, url, headers);
          if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
          times.push(res.ms);
          if (res.copy) times.copies!++;
          if (!Number.isNaN(res.serverMs)) server.push(res.serverMs);
        }
      }),
    );
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return times;
}

export async function leaderboardFigures(): Promise<void> {
  assertBuilt();
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/postgres";
  // The papers of PaperBench's `all` split when the data is there (the studio reads the splits
  // from it), else 20 made-up ids (and `all` is then every graded paper).
  const dataAll = readSplits(PAPERBENCH_DATA_DIR).all ?? [];
  const papers =
    dataAll.length >= PAPERS
      ? dataAll.slice(0, PAPERS)
      : Array.from({ length: PAPERS }, (_, i) => `bench-paper-${String(i + 1).padStart(2, "0")}`);
  const dataDir = dataAll.length >= PAPERS ? PAPERBENCH_DATA_DIR : "/nonexistent-paperbench-data";

  const server = await createTestPostgresDatabase();
  let studio: Studio | null = null;
  try {
    const handle = await openDatabase({ databaseUrl: server.url });
    try {
      const rand = mulberry32(0x1eade5);
      const gradings: SyntheticGrading[] = [];
      for (let a = 0; a < AGENTS; a++) {
        const skill = 0.1 + 0.6 * rand();
        for (let run = 1; run <= RUNS; run++) {
          for (const paper of papers) {
            gradings.push({
              agent: `bench-agent-${String(a + 1).padStart(2, "0")}`,
              paper,
              run,
              score: Math.min(1, Math.max(0, skill + (rand() - 0.5) * 0.3)),
            });
          }
        }
      }
      const started = performance.now();
      await insertSyntheticGradings(handle.db, gradings);
      console.log(
        `# leaderboard: ${gradings.length} gradings written in ${((performance.now() - started) / 1000).toFixed(2)} s`,
      );
    } finally {
      await handle.close();
    }

    studio = await startStudio(
      { DATABASE_URL: server.url, AUTH_SECRET: randomBytes(32).toString("base64url"), PAPERBENCH_DATA_DIR: dataDir },
      { port: await freePort(PORT_MIN, PORT_MAX) },
    );
    const check = await get(new http.Agent(), new URL("/api/leaderboard?split=all&variant=full", studio.url));
    const board = JSON.parse(check.body) as { agents: { nRuns: number }[]; papers: unknown[] };
    if (
      board.agents.length !== AGENTS ||
      board.papers.length !== PAPERS ||
      board.agents.some((a) => a.nRuns !== RUNS)
    ) {
      throw new Error(`unexpected board: ${board.agents.length} agents, ${board.papers.length} papers`);
    }
    console.log(`# leaderboard: the board is ${(check.bytes / 1024).toFixed(0)} KiB of JSON`);

    // Warm-up (compilation of routes, connection pools), then the figures.
    await load(studio, "/api/leaderboard?split=all", CONNECTIONS, 1);
    const api = await load(studio, "/api/leaderboard?split=all", CONNECTIONS, SECONDS);
    console.log(
      `# leaderboard: ${api.length} API requests in ${SECONDS} s over ${CONNECTIONS} connections, median ${percentile(api, 50).toFixed(1)} ms (handler ${percentile(api.server!, 50).toFixed(1)} ms)`,
    );
    report("leaderboard_p95_ms", percentile(api, 95), "ms");

    const pageCheck = await get(new http.Agent(), new URL("/leaderboard?split=all", studio.url), AS_BROWSER);
    console.log(`# leaderboard: the page is ${(pageCheck.bytes / 1024).toFixed(0)} KiB of HTML`);
    for (const [figure, headers, what] of [
      ["leaderboard_page_p95_ms", AS_BROWSER, "as a browser asks (Accept: text/html)"],
      ["leaderboard_page_render_p95_ms", {}, "rendered every time (no Accept: text/html)"],
    ] as const) {
      await load(studio, "/leaderboard?split=all", CONNECTIONS, 1, headers);
      const cpuBefore = groupCpuSeconds(studio.pid);
      const page = await load(studio, "/leaderboard?split=all", CONNECTIONS, SECONDS, headers);
      // What a page costs the server, steadier than its latency on a noisy machine: under load, one
      // process serves the 20 readers in turn, so an uncached p95 is about 20 renders' CPU.
      const cpuPerPage = ((groupCpuSeconds(studio.pid) - cpuBefore) * 1000) / page.length;
      console.log(
        `# leaderboard: ${page.length} page requests ${what}, ${page.copies} answered from a copy, median ${percentile(page, 50).toFixed(1)} ms, the studio's CPU ${cpuPerPage.toFixed(1)} ms per page`,
      );
      report(figure, percentile(page, 95), "ms");
    }

    // A changed score: the next request reads the gradings again and recomputes the board.
    const db = await openDatabase({ databaseUrl: server.url });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const recompute: number[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        await db.db.execute(
          sql`UPDATE gradings SET score = 1 - score WHERE id = (SELECT id FROM gradings ORDER BY id LIMIT 1)`,
        );
        // Past the time a check for changes is reused (LEADERBOARD_MAX_STALE_MS): this request recomputes.
        await new Promise((r) => setTimeout(r, LEADERBOARD_MAX_STALE_MS + 50));
        recompute.push((await get(agent, new URL("/api/leaderboard?split=all", studio.url))).ms);
      }
    } finally {
      agent.destroy();
      await db.close();
    }
    report("leaderboard_recompute_ms", percentile(recompute, 50), "ms");
  } finally {
    await studio?.stop();
    await server.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await leaderboardFigures();
}
