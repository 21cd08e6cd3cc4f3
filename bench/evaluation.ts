/**
 * Evaluation figure (issue 14), against the built studio on PostgreSQL:
 *
 * - `evaluation_overhead_ratio`: an evaluation of PaperBench's 20 papers × 3 runs (60 submissions
 *   of a tiny reproduce.sh, uploaded at once through the harness API), reproduced by 4 runner
 *   processes (sandbox backend) and judged by 2 `npm run worker` processes through the real
 *   `openai` client against the test model server (200 ms an answer), until every cell is counted.
 *   Wall time (first upload → last cell counted) ÷ the ideal, a lower bound from the same run's
 *   own work: the largest of
 *     - the longest single cell: its reproduction's duration + its judge calls in waves of the
 *       configuration's concurrency × 200 ms (the critical path of one cell),
 *     - Σ reproduction durations ÷ 4 runners,
 *     - Σ judge calls × 200 ms ÷ (2 workers × runs per worker × concurrency).
 *   Goal < 1.3.
 */
import path from "node:path";
import pg from "pg";
import { ALL_PAPERS, PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { STAFF, api, assertBuilt, prepareDatabase, signIn, sleep, startStudio } from "@/test/server/harness";
import {
  createStandInJudgeConfig,
  startRunner,
  startWorkerProcess,
  tarGz,
  type RunnerProcess,
  type WorkerProcess,
} from "@/test/server/runner-harness";
import { cpuSeconds, postgresCpuSeconds } from "./support/cpu";
import { report } from "./support/figures";
import { startModelServerProcess } from "./support/model-server-process";

const LATENCY_MS = 200;
const RUNS = 3;
const RUNNERS = 4;
const WORKERS = 2;
/** A worker grades this many runs at once (`startJudgeWorker`'s default). */
const RUNS_PER_WORKER = 2;
const CONCURRENCY = 25;
const AGENT = "Bench evaluation agent";

function startWorker(env: Record<string, string>, i: number): WorkerProcess {
  // BENCH_CPU_PROF=<dir>: each worker writes a V8 CPU profile there when it stops.
  const nodeArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  return startWorkerProcess(env, {
    nodeArgs,
    onStderr: (text) => {
      if (!/waiting for judge jobs/.test(text)) process.stderr.write(`[worker ${i}] ${text}`);
    },
  });
}

export async function evaluationFigures(): Promise<void> {
  assertBuilt();
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/postgres";
  // A folder's name is not always its paper's id (stochastic-interpolants holds stochastic-interpolant).
  const paperIds: string[] = [];
  const db = await prepareDatabase("postgres", 0, "bench-evaluation", async (_db, handle) => {
    for (const paper of ALL_PAPERS) {
      const { files, folderName } = readPaperFolder(path.join(PAPERBENCH_DATA_DIR, "papers", paper));
      paperIds.push((await importPaperFolder(handle, { files, folderName, userId: null, source: "bench" })).paperId);
    }
  });
  const model = await startModelServerProcess(LATENCY_MS);
  const env = { ...db.env, JUDGE_KEY_BENCH: "bench-key" };
  const studio = await startStudio(env);
  const runners: RunnerProcess[] = [];
  const workers: WorkerProcess[] = [];
  const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
  await client.connect();
  try {
    const staff = await signIn(studio.url, STAFF.email, STAFF.password);
    const token = (await api<{ token: string }>(studio.url, staff, "POST", "/api/runners/tokens", { name: "bench" }))
      .body.token;
    for (let i = 0; i < RUNNERS; i++)
      runners.push(startRunner(studio.url, token, { name: `bench-eval-${i}`, backend: "sandbox" }));
    for (let i = 0; i < WORKERS; i++) workers.push(startWorker(env, i));
    const configId = await createStandInJudgeConfig(studio.url, staff, {
      name: "Bench test-server judge",
      model: model.baseUrl,
      apiKeyEnv: "JUDGE_KEY_BENCH",
      maxConcurrency: CONCURRENCY,
    });
    const created = await api<{ evaluation: { id: string } }>(studio.url, staff, "POST", "/api/evaluations", {
      name: "Bench: 20 papers × 3 runs",
      agent: AGENT,
      split: "custom",
      paperIds,
      runs: RUNS,
      variant: "full",
      judgeConfigId: configId,
    });
    if (created.status !== 200 && created.status !== 201)
      throw new Error(`creating the evaluation answered ${created.status}: ${JSON.stringify(created.body)}`);
    const evaluationId = created.body.evaluation.id;
    await sleep(3_000); // runners registered and long-polling, workers listening

    const archive = await tarGz({
      "reproduce.sh": "echo reproduced > output.txt\nsleep 1\n",
      "README.md": "A tiny submission.\n",
    });
    const started = performance.now();
    const cells = paperIds.flatMap((paper) => Array.from({ length: RUNS }, (_, r) => ({ paper, run: r + 1 })));
    await Promise.all(
      cells.map(async ({ paper, run }) => {
        const q = new URLSearchParams({
          agent: AGENT,
          run: String(run),
          name: "submission.tar.gz",
          evaluation: evaluationId,
        });
        const res = await fetch(`${studio.url}/api/papers/${encodeURIComponent(paper)}/submissions?${q}`, {
          method: "POST",
          headers: { cookie: staff, "content-type": "application/gzip" },
          body: new Uint8Array(archive),
        });
        if (res.status !== 201)
          throw new Error(`uploading ${paper} run ${run} answered ${res.status}: ${await res.text()}`);
      }),
    );
    let last = "";
    for (;;) {
      const { body } = await api<{
        matrix?: { progress: { done: number; total: number } };
        progress?: { done: number; total: number };
      }>(studio.url, staff, "GET", `/api/evaluations/${evaluationId}/matrix`);
      const progress = body.matrix?.progress ?? body.progress;
      if (!progress) throw new Error(`the matrix answered no progress: ${JSON.stringify(body).slice(0, 300)}`);
      const line = `${progress.done}/${progress.total}`;
      if (line !== last) console.log(`# ${((performance.now() - started) / 1000).toFixed(1)} s: ${line} cells done`);
      last = line;
      if (progress.done >= progress.total) break;
      if (performance.now() - started > 30 * 60_000)
        throw new Error(`the evaluation did not finish in 30 minutes (${line})`);
      await sleep(250);
    }
    const wallS = (performance.now() - started) / 1000;

    const perCell = await client.query<{ repro_s: number; calls: number }>(
      `SELECT coalesce((SELECT sum(extract(epoch FROM a.finished_at - a.started_at)) FROM job_attempts a JOIN jobs j ON j.id = a.job_id
                        WHERE j.submission_id = c.submission_id AND j.kind = 'reproduce'), 0)::float AS repro_s,
              coalesce((SELECT sum(r.calls) FROM judge_runs r WHERE r.submission_id = c.submission_id), 0)::int AS calls
         FROM evaluation_cells c WHERE c.evaluation_id = $1`,
      [evaluationId],
    );
    const wave = (calls: number) => Math.ceil(calls / CONCURRENCY) * (LATENCY_MS / 1000);
    const longestCell = Math.max(...perCell.rows.map((c) => c.repro_s + wave(c.calls)));
    const reproTotal = perCell.rows.reduce((s, c) => s + c.repro_s, 0);
    const callsTotal = perCell.rows.reduce((s, c) => s + c.calls, 0);
    const runnerBound = reproTotal / RUNNERS;
    const judgeBound = (callsTotal * LATENCY_MS) / 1000 / (WORKERS * RUNS_PER_WORKER * CONCURRENCY);
    const ideal = Math.max(longestCell, runnerBound, judgeBound);
    console.log(
      `# ${perCell.rows.length} cells in ${wallS.toFixed(1)} s; ${callsTotal} judge calls; ideal ${ideal.toFixed(1)} s ` +
        `(longest cell ${longestCell.toFixed(1)} s, reproductions ${reproTotal.toFixed(1)} s ÷ ${RUNNERS} = ${runnerBound.toFixed(1)} s, judge ${judgeBound.toFixed(1)} s)`,
    );
    // Where the 2 cores went: the figure is CPU-bound here when this adds up to about 2 × the wall time.
    const cpu = (pid: number | undefined) => cpuSeconds(pid);
    console.log(
      `# CPU seconds: studio ${cpu(studio.pid).toFixed(0)}, workers ${workers.map((w) => cpu(w.pid).toFixed(0)).join(" + ")}, ` +
        `model server ${cpu(model.pid).toFixed(0)}, runners ${runners.map((r) => cpu(r.pid).toFixed(0)).join(" + ")}, PostgreSQL ${postgresCpuSeconds().toFixed(0)} (all its backends since boot)`,
    );
    // How full the judge's slots were, 5 s at a time from the first call: where the run waited.
    const { arrivals } = await model.stats();
    const slots = WORKERS * RUNS_PER_WORKER * CONCURRENCY;
    const first = Math.min(...arrivals);
    const buckets: number[] = [];
    for (const at of arrivals)
      buckets[Math.floor((at - first) / 5_000)] = (buckets[Math.floor((at - first) / 5_000)] ?? 0) + 1;
    console.log(
      `# judge slots busy per 5 s (of ${slots}): ` +
        Array.from(buckets, (n) => `${Math.round((((n ?? 0) * LATENCY_MS) / 5_000 / slots) * 100)}%`).join(" "),
    );
    report("evaluation_overhead_ratio", wallS / ideal, "×", 2);
  } finally {
    await client.end();
    for (const w of workers) w.kill("SIGTERM");
    await Promise.all(runners.map((r) => r.stop()));
    await studio.stop();
    model.close();
    await sleep(1_000);
    await db.drop();
  }
}
