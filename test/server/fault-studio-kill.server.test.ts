/**
 * Fault suite (issue 23), on PostgreSQL: the studio is killed with SIGKILL while work it handed out
 * goes on in other processes, and started again on the same database and port.
 *
 * - Mid-reproduction: the runner keeps running reproduce.sh through the outage (its heartbeats and
 *   log lines fail, are logged and retried); the job ends once (one attempt, succeeded) with every
 *   log line stored once.
 * - Mid-judge-run, graded by an external worker (`npm run worker`): the worker never needed the
 *   studio and goes on grading while it is down; the run ends once, every leaf asked of the model
 *   once, and the restarted studio shows it finished.
 *
 * Needs DATABASE_URL (skipped without it; CI sets it).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JudgeRunView } from "@/lib/judge/views";
import { startOpenAiTestServer, type OpenAiTestServer } from "@/test/openai-test-server";
import {
  DEMO_PAPER_ID,
  STAFF,
  api,
  killStudio,
  prepareDatabase,
  signIn,
  startStudio,
  waitFor,
  type PreparedDatabase,
  type Studio,
} from "./harness";
import {
  startDemoJudgeRun,
  startRunner,
  startWorkerProcess,
  tarGz,
  uploadSubmission,
  waitForJob,
  type RunnerProcess,
  type WorkerProcess,
} from "./runner-harness";

const LINES = 30;
const CONCURRENCY = 2;

describe.runIf(process.env.DATABASE_URL)("the studio killed with SIGKILL while others work (PostgreSQL)", () => {
  let db: PreparedDatabase | undefined;
  let studio: Studio | undefined;
  let model: OpenAiTestServer | undefined;
  let runner: RunnerProcess | undefined;
  let worker: WorkerProcess | undefined;
  let env: Record<string, string>;
  let staff: string;
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-fault-kill-blobs-"));

  beforeAll(async () => {
    model = await startOpenAiTestServer({ latencyMs: 300 });
    db = await prepareDatabase("postgres", 0, "fault-studio-kill");
    // A lease far longer than the outage: the job is the runner's and the worker's throughout.
    env = {
      ...db.env,
      BLOB_DIR: blobDir,
      WORKER_IN_PROCESS: "0",
      JOB_LEASE_S: "60",
      JOB_HEARTBEAT_S: "1",
      JUDGE_KEY_TEST: "test-key",
    };
    studio = await startStudio(env);
    staff = await signIn(studio.url, STAFF.email, STAFF.password);
  });
  afterAll(async () => {
    await runner?.stop();
    worker?.kill();
    await studio?.stop();
    await model?.close();
    await db?.drop();
    fs.rmSync(blobDir, { recursive: true, force: true });
  });

  /** SIGKILL to the studio's process group, then the same studio started again on its port. */
  async function killAndRestart(whileDown: () => Promise<unknown>): Promise<void> {
    const gone = studio!;
    await killStudio(gone);
    await whileDown();
    studio = await startStudio(env, { port: gone.port });
    staff = await signIn(studio.url, STAFF.email, STAFF.password);
  }

  it("mid-reproduction: the runner's job finishes once, every log line stored once", async () => {
    const token = await api<{ token: string }>(studio!.url, staff, "POST", "/api/runners/tokens", { name: "fault" });
    expect(token.status).toBe(200);
    runner = startRunner(studio!.url, token.body.token, { name: "fault-kill", backend: "sandbox" });
    const up = await uploadSubmission(
      studio!.url,
      { cookie: staff },
      DEMO_PAPER_ID,
      { agent: "Fault agent", run: 1, reproduce: true },
      await tarGz({
        "reproduce.sh": `for i in $(seq 1 ${LINES}); do echo "line $i of ${LINES}"; sleep 0.3; done\n`,
      }),
    );
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const jobId = up.body.jobId!;
    await waitForJob(studio!.url, staff, jobId, (a) => a.job.status === "running" && /line 3 of/.test(a.logTail));

    // Down long enough for the runner to miss heartbeats in a row (it says so in its log).
    await killAndRestart(() =>
      waitFor("the runner missing heartbeats", () => /heartbeat failed \(2 in a row/.test(runner!.output())),
    );

    const { job, logTail } = await waitForJob(studio!.url, staff, jobId);
    expect(job.status, `${logTail}\n${runner.output()}`).toBe("succeeded");
    expect(job.attempts).toBe(1);
    const lines = [...logTail.matchAll(/line (\d+) of \d+/g)].map((m) => Number(m[1]));
    expect(lines).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
  });

  it("mid-judge-run with an external worker: the run ends once, each leaf asked of the model once", async () => {
    worker = startWorkerProcess(env);
    const runId = await startDemoJudgeRun(studio!.url, staff, {
      agent: "Fault judge agent",
      configName: "Fault test judge",
      model: model!.baseUrl,
      apiKeyEnv: "JUDGE_KEY_TEST",
      maxConcurrency: CONCURRENCY,
    });
    const readRun = async () =>
      (await api<{ run: JudgeRunView }>(studio!.url, staff, "GET", `/api/judge/runs/${runId}`)).body.run;

    await waitFor("a few verdicts stored", async () => {
      const run = await readRun();
      return run.leavesDone >= 3 && run.leavesDone < run.leavesTotal - CONCURRENCY ? run : undefined;
    });
    // While the studio is down the worker goes on asking the model.
    await killAndRestart(async () => {
      const asked = model!.requests.length;
      await waitFor("the worker grading on without the studio", () => model!.requests.length > asked);
    });

    const done = await waitFor("the run ended", async () => {
      const run = await readRun();
      return run.status === "succeeded" || run.status === "failed" ? run : undefined;
    });
    expect(done.status, `${done.failureReason ?? ""}\n${worker.output()}`).toBe("succeeded");
    expect(done.leavesDone).toBe(done.leavesTotal);
    expect(done.leavesInvalid).toBe(0);
    // Nothing done twice: the worker never lost its lease, so no leaf was asked again.
    expect(model!.requests.length).toBe(done.leavesTotal);
  });
});
