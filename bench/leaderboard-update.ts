/**
 * `leaderboard_update_after_grading_ms` (issue 14): from the last verdict of a grading stored to
 * the leaderboard API's body reflecting it. Goal < 1000 ms.
 *
 * In process, through the API's own call (`getLeaderboardJson` with `LEADERBOARD_MAX_STALE_MS`, the
 * check for changes a request may reuse), on PostgreSQL (the figure) and PGlite (printed beside):
 * 50 agents × 20 papers × 10 runs of synthetic gradings (the leaderboard bench's 10,000) and an
 * evaluated agent, whose row is computed from its evaluation (20 papers × 3 runs, its policies).
 * Each of 15 trials stores a verdict on one of the evaluation's gradings the way the judge worker
 * stores one (the verdict and the grading's new root score in one transaction), then a client
 * polls the API every 10 ms; the clock stops at the first body whose evaluated row has the new
 * mean. The figure is the median; the worst is printed.
 *
 * Run alone: `tsx --conditions=react-server bench/leaderboard-update.ts` (or `npm run bench -- leaderboard-update`).
 */
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { setGradingScore } from "@/db/queries/gradings";
import { insertVerdicts } from "@/db/queries/grading-verdicts";
import { insertSyntheticGradings, type SyntheticGrading } from "@/db/leaderboard-fixture.testutil";
import { mulberry32 } from "@/lib/random";
import type { LeaderboardView } from "@/lib/leaderboard/types";
import { createEvaluation } from "@/server/evaluations/create-evaluation";
import { getLeaderboardJson } from "@/server/leaderboard/leaderboard";
import { LEADERBOARD_MAX_STALE_MS } from "@/lib/leaderboard/freshness";
import { openTestDatabase, type TestDatabaseKind } from "@/test/databases";
import { median, report } from "./support/figures";

const AGENTS = 50;
const PAPERS = 20;
const RUNS = 10;
const EVALUATION_RUNS = 3;
const TRIALS = 15;
const POLL_MS = 10;
const EVALUATED = "bench-evaluated";

const papers = Array.from({ length: PAPERS }, (_, i) => `bench-paper-${String(i + 1).padStart(2, "0")}`);
const dataSplits = { all: papers };

async function seed(handle: DbHandle): Promise<string[]> {
  const rand = mulberry32(0x1eade5);
  const gradings: SyntheticGrading[] = [];
  for (let a = 0; a < AGENTS; a++) {
    const skill = 0.1 + 0.6 * rand();
    for (let run = 1; run <= RUNS; run++) {
      for (const paper of papers)
        gradings.push({
          agent: `bench-agent-${String(a + 1).padStart(2, "0")}`,
          paper,
          run,
          score: Math.min(1, Math.max(0, skill + (rand() - 0.5) * 0.3)),
        });
    }
  }
  for (let run = 1; run <= EVALUATION_RUNS; run++)
    for (const paper of papers) gradings.push({ agent: EVALUATED, paper, run, score: 0.5 });
  await insertSyntheticGradings(handle.db, gradings);
  const evaluation = await createEvaluation(
    handle,
    { name: "bench evaluation", agent: EVALUATED, split: "custom", paperIds: papers, runs: EVALUATION_RUNS },
    null,
  );
  await handle.db.execute(
    sql`UPDATE submissions s SET evaluation_id = ${evaluation.id} FROM agents a WHERE a.id = s.agent_id AND a.name = ${EVALUATED}`,
  );
  const rows = await handle.db.execute(sql`
    SELECT g.id FROM gradings g JOIN submissions s ON s.id = g.submission_id WHERE s.evaluation_id = ${evaluation.id} ORDER BY s.paper_id, s.run_index
  `);
  return (rows.rows as { id: string }[]).map((r) => r.id);
}

async function evaluatedMean(handle: DbHandle): Promise<number | null> {
  const { body } = await getLeaderboardJson(handle, {
    split: "all",
    variant: "full",
    dataSplits,
    maxStaleMs: LEADERBOARD_MAX_STALE_MS,
  });
  const row = (JSON.parse(body) as LeaderboardView).agents.find((a) => a.name === EVALUATED);
  if (!row || row.basis.kind !== "evaluation")
    throw new Error(`the evaluated agent's row is ${row ? row.basis.kind : "missing"}`);
  return row.mean;
}

async function measure(kind: TestDatabaseKind): Promise<number[]> {
  const handle = await openTestDatabase(kind);
  try {
    const gradingIds = await seed(handle);
    let mean = await evaluatedMean(handle);
    const times: number[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const gradingId = gradingIds[(t * 7) % gradingIds.length];
      const score = t % 2 === 0 ? 1 : 0;
      // The worker's write of a verdict: the leaf's verdict and the grading's recomputed root score.
      await handle.db.transaction(async (tx) => {
        await insertVerdicts(tx, gradingId, [
          {
            nodeKey: crypto.randomUUID(),
            nodeId: `leaf-${t}`,
            score,
            valid: true,
            explanation: "bench",
            judgeMetadata: null,
            source: "judge",
          },
        ]);
        await setGradingScore(tx, gradingId, score);
      });
      const stored = performance.now();
      for (;;) {
        const now = await evaluatedMean(handle);
        if (now !== mean) {
          times.push(performance.now() - stored);
          mean = now;
          break;
        }
        if (performance.now() - stored > 10_000) throw new Error("the board did not reflect the verdict within 10 s");
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      // Start the next trial from a check reused as the API would (a visitor's request a moment ago).
      await new Promise((r) => setTimeout(r, Math.random() * LEADERBOARD_MAX_STALE_MS));
    }
    return times;
  } finally {
    await handle.close();
  }
}

export async function leaderboardUpdateFigures(): Promise<void> {
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/postgres";
  const pglite = await measure("pglite");
  console.log(
    `# leaderboard_update_after_grading_ms on PGlite: median ${median(pglite).toFixed(1)} ms, worst ${Math.max(...pglite).toFixed(1)} ms`,
  );
  const postgres = await measure("postgres");
  console.log(`# leaderboard_update_after_grading_ms on PostgreSQL: worst ${Math.max(...postgres).toFixed(1)} ms`);
  report("leaderboard_update_after_grading_ms", median(postgres), "ms");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await leaderboardUpdateFigures();
}
