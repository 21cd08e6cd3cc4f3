/**
 * Leaderboard figures, against the built studio (`next start`, NEXT_DIST_DIR or `.next`) on a
 * scratch PostgreSQL database (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 * 50 agents × 20 papers × 10 runs = 10,000 gradings, written with bulk SQL (not the import path).
 *
 * - `leaderboard_p95_ms`: 20 concurrent keep-alive connections, each sending GET /api/leaderboard
 *   one after another for 5 s, signed out; p95 of the response times. Goal < 200 ms.
 * - `leaderboard_page_p95_ms`: the same for the page (`GET /leaderboard`, server-rendered HTML).
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
import { LEADERBOARD_MAX_STALE_MS } from "@/server/leaderboard/leaderboard";
import { readSplits } from "@/server/papers/data-splits";
import { mulberry32 } from "@/lib/random";
import { PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";
import { createTestPostgresDatabase } from "@/test/databases";
import { assertBuilt, freePort, startStudio, type Studio } from "@/test/server/harness";
import { groupCpuSeconds } from "./support/cpu";
import { percentile, report } from "./support/figures";

const AGENTS = 50;
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
): Promise<{ status: number; bytes: number; ms: number; body: string; serverMs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const serverMs = Number(/app;dur=([\d.]+)/.exec(String(res.headers["server-timing"] ?? ""))?.[1] ?? NaN);
        resolve({ status: res.statusCode ?? 0, bytes: body.length, ms: performance.now() - started, body, serverMs });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** `connections` clients, each with its own connection, requesting `path` back to back for `seconds`. */
async function load(
  studio: Studio,
  path: string,
  connections: number,
  seconds: number,
): Promise<number[] & { server?: number[] }> {
  const url = new URL(path, studio.url);
  const times: number[] & { server?: number[] } = [];
  const server: number[] = (times.server = []);
  const deadline = performance.now() + seconds * 1000;
  const agents = Array.from({ length: connections }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    await Promise.all(
      agents.map(async (agent) => {
        while (performance.now() < deadline) {
          const res = await get(agent, url);
          if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
          times.push(res.ms);
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

    const pageCheck = await get(new http.Agent(), new URL("/leaderboard?split=all", studio.url));
    console.log(`# leaderboard: the page is ${(pageCheck.bytes / 1024).toFixed(0)} KiB of HTML`);
    await load(studio, "/leaderboard?split=all", CONNECTIONS, 1);
    const cpuBefore = groupCpuSeconds(studio.pid);
    const page = await load(studio, "/leaderboard?split=all", CONNECTIONS, SECONDS);
    // What a page costs the server, steadier than its latency on a noisy machine: under load, one
    // process serves the 20 readers in turn, so the p95 is about 20 requests' CPU.
    const cpuPerPage = ((groupCpuSeconds(studio.pid) - cpuBefore) * 1000) / page.length;
    console.log(
      `# leaderboard: ${page.length} page requests, median ${percentile(page, 50).toFixed(1)} ms, the studio's CPU ${cpuPerPage.toFixed(1)} ms per page`,
    );
    report("leaderboard_page_p95_ms", percentile(page, 95), "ms");

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
