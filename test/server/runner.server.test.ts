/**
 * Reproduction end to end (issue 12): the built studio, real runner processes (`runner/main.ts`)
 * talking the runner protocol over HTTP, real reproduce.sh scripts in the sandbox backend; on PGlite
 * and, when DATABASE_URL is set, PostgreSQL. A short lease (4 s) makes the requeue cases quick.
 */
import { gunzipSync } from "node:zlib";
import * as tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluationMatrix } from "@/lib/evaluations/matrix";
import { DEMO_PAPER_ID, api, waitFor } from "./harness";
import {
  processWithMarker,
  startRunner,
  tarGz,
  uploadSubmission,
  waitForJob,
  type RunnerProcess,
} from "./runner-harness";
import { studioSuite } from "./studio-suite";

const kinds = process.env.DATABASE_URL ? (["pglite", "postgres"] as const) : (["pglite"] as const);
const LEASE_S = 4;
/** The sandbox backend needs bubblewrap; CI installs it, a laptop may fall back to local. */
const BACKEND = "sandbox";

describe.each(kinds)("reproduction with runner processes on %s", (kind) => {
  // The judge worker in the studio on PostgreSQL too (the evaluation case judges what the runner reproduced).
  const studio = studioSuite(kind, `runner-${kind}`, {
    env: { JOB_LEASE_S: String(LEASE_S), JOB_HEARTBEAT_S: "1", WORKER_IN_PROCESS: "1" },
  });
  let runnerToken: string;
  const runners: RunnerProcess[] = [];
  let run = 0;

  beforeAll(async () => {
    const created = await api<{ token: string }>(studio.url, studio.staff, "POST", "/api/runners/tokens", {
      name: `tests on ${kind}`,
    });
    expect(created.status).toBe(200);
    runnerToken = created.body.token;
  });
  // Registered after studioSuite, so it runs first (afterAll hooks run in reverse order): the
  // runners stop while the studio is still up.
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
  });

  const runner = (name: string, env: Record<string, string> = {}) => {
    const r = startRunner(studio.url, runnerToken, { name: `${name}-${kind}`, backend: BACKEND, env });
    runners.push(r);
    return r;
  };
  const submit = async (files: Record<string, string>) => {
    const up = await uploadSubmission(
      studio.url,
      { cookie: studio.staff },
      DEMO_PAPER_ID,
      { agent: `Runner test · ${kind}`, run: ++run, reproduce: true },
      await tarGz(files),
    );
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    return up.body.jobId!;
  };
  const setRunSettings = (settings: { timeoutS: number; network?: boolean }) =>
    api(studio.url, studio.staff, "PUT", `/api/papers/${DEMO_PAPER_ID}/run-settings`, {
      timeoutS: settings.timeoutS,
      gpus: 0,
      network: settings.network ?? false,
      salvageRetryBelowS: 0,
    });

  it("runs a submission that writes outputs: succeeded, exit 0, log complete, outputs listed with the changed files", async () => {
    runner("main");
    const jobId = await submit({
      "reproduce.sh":
        'set -e\nfor i in 1 2 3 4 5; do echo "step $i of 5"; sleep 0.2; done\nmkdir -p results\necho "method,score" > results/table.csv\necho "wagc,1.509" >> results/table.csv\necho done\n',
      "train.py": "print('hello')\n",
    });
    const { job, logTail } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job.status, logTail).toBe("succeeded");
    expect(job.exitCode).toBe(0);
    expect(logTail).toMatch(/step 1 of 5[\s\S]*step 5 of 5[\s\S]*done/);
    const files = Object.fromEntries((job.outputs?.files ?? []).map((f) => [f.path, f]));
    expect(files["results/table.csv"]).toMatchObject({ changed: true });
    expect(files["train.py"]).toMatchObject({ changed: false });
    expect(files["reproduce.log"]).toBeDefined();
    expect(job.metadata).toMatchObject({
      repro_script_exists: true,
      timedout: false,
      exit_code: 0,
      backend: BACKEND,
      attempt: 1,
    });
    expect(job.metadata?.files_after_reproduce).toMatch(/table\.csv/);
    // PaperBench's executed metadata: its keys first, in its order.
    const exported = await fetch(`${studio.url}/api/jobs/${jobId}/metadata`, { headers: { cookie: studio.staff } });
    expect(Object.keys(JSON.parse(await exported.text())).slice(0, 3)).toEqual([
      "is_valid_git_repo",
      "git_log",
      "repro_script_exists",
    ]);
  });

  it("keeps the log and the exit status of a script that exits 3", async () => {
    const jobId = await submit({ "reproduce.sh": 'echo "about to fail"\nexit 3\n' });
    const { job, logTail } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job).toMatchObject({ status: "failed", exitCode: 3 });
    expect(logTail).toContain("about to fail");
  });

  it("fails clearly when reproduce.sh is missing", async () => {
    const jobId = await submit({ "README.md": "no script here\n" });
    const { job } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job.status).toBe("failed");
    expect(job.failureReason).toMatch(/reproduce\.sh/);
    expect(job.metadata?.repro_script_exists).toBe(false);
  });

  it("judges a reproduction that wrote results then exited 1, and one that timed out, in an evaluation: their Code Development leaves count", async () => {
    const configs = await api<{ configs: { id: string; name: string }[] }>(
      studio.url,
      studio.staff,
      "GET",
      "/api/judge/configs",
    );
    const dummyId = configs.body.configs.find((c) => c.name === "Dummy judge")!.id;
    const agent = `Judged-anyway agent · ${kind}`;
    // PaperBench's defaults: they would count 0 a run that left nothing to judge, not these.
    const created = await api<{ evaluation: { id: string } }>(studio.url, studio.staff, "POST", "/api/evaluations", {
      name: `judged anyway ${kind}`,
      agent,
      paperIds: [DEMO_PAPER_ID],
      runs: 2,
      variant: "full",
      judgeConfigId: dummyId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const evaluationId = created.body.evaluation.id;
    const upload = async (run: number, files: Record<string, string>) => {
      const q = new URLSearchParams({
        agent,
        run: String(run),
        name: "submission.tar.gz",
        variant: "full",
        evaluation: evaluationId,
      });
      const res = await fetch(`${studio.url}/api/papers/${DEMO_PAPER_ID}/submissions?${q}`, {
        method: "POST",
        headers: { cookie: studio.staff, "content-type": "application/gzip", origin: studio.url },
        body: new Uint8Array(await tarGz(files)),
      });
      expect(res.status).toBe(201);
    };
    const counted = (run: number) =>
      waitFor(
        `run ${run} counted`,
        async () => {
          const m = await api<EvaluationMatrix>(
            studio.url,
            studio.staff,
            "GET",
            `/api/evaluations/${evaluationId}/matrix`,
          );
          const cell = m.body.cells.find((c) => c.run === run);
          return cell && ["counted", "excluded"].includes(cell.stage) ? { cell, matrix: m.body } : undefined;
        },
        250,
      );
    /** Every Code Development leaf of the cell's grading, as its PaperBench graded tree says. */
    const codeDevLeaves = async (gradingId: string) => {
      const res = await fetch(`${studio.url}/api/gradings/${gradingId}/export?format=json`, {
        headers: { cookie: studio.staff },
      });
      expect(res.status).toBe(200);
      type Node = { task_category: string | null; score: number; valid_score: boolean; sub_tasks: Node[] };
      const leaves: Node[] = [];
      const walk = (n: Node) => (n.sub_tasks.length === 0 ? leaves.push(n) : n.sub_tasks.forEach(walk));
      walk((await res.json()) as Node);
      return leaves.filter((l) => l.task_category === "Code Development");
    };

    runner("judged-anyway");
    await upload(1, {
      "reproduce.sh": 'mkdir -p results\necho "method,score" > results/table.csv\necho "wrote results"\nexit 1\n',
      "train.py": "print('hello')\n",
    });
    const failed = await counted(1);
    expect(failed.cell).toMatchObject({ stage: "counted", state: "succeeded", failure: null, score: 1 });
    expect(failed.cell.gradingId).toBeTruthy();
    expect(failed.cell.reproduction).toMatch(/^reproduce\.sh exited 1 after \d/);
    const job = await waitForJob(studio.url, studio.staff, failed.cell.jobId!);
    expect(job.job).toMatchObject({ status: "failed", exitCode: 1 });
    expect(job.job.outputs?.files.find((f) => f.path === "results/table.csv")).toMatchObject({ changed: true });
    // The executed submission as PaperBench stores it: every entry under submission/, the results and the log in it.
    const exported = await fetch(`${studio.url}/api/jobs/${failed.cell.jobId}/outputs?format=paperbench`, {
      headers: { cookie: studio.staff },
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toContain("submission_executed.tar.gz");
    const names: string[] = [];
    const extract = tar.extract();
    const listed = (async () => {
      for await (const entry of extract) {
        names.push(entry.header.name);
        entry.resume();
      }
    })();
    extract.end(gunzipSync(Buffer.from(await exported.arrayBuffer())));
    await listed;
    expect(names.every((n) => n === "submission/" || n.startsWith("submission/"))).toBe(true);
    expect(names).toEqual(
      expect.arrayContaining([
        "submission/results/table.csv",
        "submission/reproduce.log",
        "submission/reproduce.log.creation_time",
      ]),
    );
    expect(
      (
        await fetch(`${studio.url}/api/jobs/${failed.cell.jobId}/outputs?format=zip`, {
          headers: { cookie: studio.staff },
        })
      ).status,
    ).toBe(400);
    const leaves = await codeDevLeaves(failed.cell.gradingId!);
    expect(leaves.length).toBeGreaterThan(0);
    expect(leaves.every((l) => l.valid_score && l.score === 1)).toBe(true);

    expect((await setRunSettings({ timeoutS: 2 })).status).toBe(200);
    try {
      await upload(2, {
        "reproduce.sh": 'mkdir -p results\necho "method,score" > results/table.csv\necho "wrote results"\nsleep 60\n',
      });
      const timedOut = await counted(2);
      expect(timedOut.cell).toMatchObject({
        stage: "counted",
        failure: null,
        score: 1,
        reproduction: "timed out after 2 s",
      });
      expect((await waitForJob(studio.url, studio.staff, timedOut.cell.jobId!)).job.status).toBe("timed_out");
      expect((await codeDevLeaves(timedOut.cell.gradingId!)).every((l) => l.valid_score && l.score === 1)).toBe(true);
      expect(timedOut.matrix.result).toMatchObject({ runScores: [1, 1], excluded: [] });
    } finally {
      await setRunSettings({ timeoutS: 3600 });
    }
  });

  it("times out a script that outlives the paper's timeout, leaving no process behind", async () => {
    expect((await setRunSettings({ timeoutS: 2 })).status).toBe(200);
    try {
      const marker = `${300 + Math.floor(Math.random() * 600)}.${Date.now() % 100000}`;
      const jobId = await submit({ "reproduce.sh": `echo start\n(setsid sleep ${marker} &)\nsleep ${marker}\n` });
      const { job } = await waitForJob(studio.url, studio.staff, jobId);
      expect(job.status).toBe("timed_out");
      expect(job.metadata?.timedout).toBe(true);
      expect(processWithMarker(marker)).toBeNull();
    } finally {
      await setRunSettings({ timeoutS: 3600 });
    }
  });

  it("cancels a running job that ignores SIGTERM: SIGKILL after the grace period, leaving no process behind", async () => {
    const marker = `${900 + Math.floor(Math.random() * 90)}.${Date.now() % 100000}`;
    const jobId = await submit({ "reproduce.sh": `echo running\ntrap '' TERM\nsleep ${marker}\n` });
    await waitForJob(studio.url, studio.staff, jobId, (a) => a.logTail.includes("running"));
    expect((await api(studio.url, studio.staff, "POST", `/api/jobs/${jobId}/cancel`)).status).toBe(200);
    // The runner hears the cancel at once (test/server/runner-output-cancel.server.test.ts); the 10 s grace comes on top.
    const { job } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job.status).toBe("cancelled");
    expect(processWithMarker(marker)).toBeNull();
  });

  it("gives reproduce.sh none of the runner's secrets and no network when the paper denies it", async () => {
    const jobId = await submit({
      "reproduce.sh": [
        'if env | grep -q rst_; then echo "LEAK in env"; fi',
        'if cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep -q rst_; then echo "LEAK in /proc"; fi',
        `if (exec 3<>/dev/tcp/127.0.0.1/${studio.studio.port}) 2>/dev/null; then echo "NETWORK reached the studio"; else echo "network refused"; fi`,
        'if touch /usr/escape 2>/dev/null; then echo "WROTE outside"; else echo "outside is read-only"; fi',
        "echo checked",
      ].join("\n"),
    });
    const { job, logTail } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job.status, logTail).toBe("succeeded");
    expect(logTail).toContain("checked");
    expect(logTail).not.toMatch(/LEAK|NETWORK|WROTE/);
    expect(logTail).toContain("network refused");
  });

  it("moves a job of a runner killed with SIGKILL to another runner after the lease, and completes it once", async () => {
    // Only the doomed runner polls when the job is queued.
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    const doomed = runner("doomed");
    const jobId = await submit({ "reproduce.sh": 'echo "attempt starts"\nsleep 3\necho "attempt ends"\n' });
    await waitForJob(
      studio.url,
      studio.staff,
      jobId,
      (a) => a.job.status === "running" && a.logTail.includes("attempt starts"),
    );
    // The whole group: the runner and the job it was running (a dead machine).
    process.kill(-doomed.pid, "SIGKILL");
    runner("rescuer");
    // How long after the kill is bench's runner_requeue_after_kill_s.
    await waitForJob(studio.url, studio.staff, jobId, (a) => a.job.attempts === 2);
    const { job } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job.status).toBe("succeeded");
    expect(job.attemptHistory.map((a) => a.status)).toEqual(["failed", "succeeded"]);
    expect(job.attemptHistory[0].reason).toMatch(/lease expired/);
  });

  it("gets a job of a runner stopped with SIGTERM back into the queue at once, not after its lease", async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    const stopped = runner("stopped");
    const jobId = await submit({ "reproduce.sh": 'echo "before the stop"\nsleep 5\necho "done"\n' });
    // Mid-reproduction, as a scale-down finds it. (A job claimed at the very instant of the stop can
    // miss its hand-back and waits out its lease instead.)
    await waitForJob(studio.url, studio.staff, jobId, (a) => a.logTail.includes("before the stop"));
    stopped.kill("SIGTERM");
    const { job } = await waitForJob(studio.url, studio.staff, jobId, (a) => a.job.status === "queued");
    // Released by the runner, not expired with its lease (that reason would be "lease expired").
    expect(job.attemptHistory[0].reason).toMatch(/^Released: the runner stopped-/);
    runner("after-stop");
    const finished = await waitForJob(studio.url, studio.staff, jobId);
    expect(finished.job.status).toBe("succeeded");
    expect(finished.job.attempts).toBe(2);
  });

  it("refuses a paused runner's late completion once its job has moved on (fencing)", async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    const paused = runner("paused");
    const jobId = await submit({ "reproduce.sh": 'echo "first holder"\nsleep 2\necho "finished"\n' });
    await waitForJob(studio.url, studio.staff, jobId, (a) => a.job.status === "running");
    // Stop the runner process alone (its job keeps running) so that its lease expires.
    paused.kill("SIGSTOP");
    runner("second");
    const { job } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job.status).toBe("succeeded");
    expect(job.attempts).toBe(2);
    paused.kill("SIGCONT");
    // The first runner wakes, finds its lease stale and abandons the job: nothing changes.
    await waitFor("the paused runner's abandon", () => paused.output().includes(`abandoned job ${jobId}`));
    const after = await waitForJob(studio.url, studio.staff, jobId);
    expect(after.job.attemptHistory.map((a) => a.status)).toEqual(["failed", "succeeded"]);
    expect(after.job.status).toBe("succeeded");
  });

  it("lets tokens act only where they may", async () => {
    const noAuth = await fetch(`${studio.url}/api/runner/claim`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(noAuth.status).toBe(401);
    // A runner token is not a job token, and a browser session is neither.
    const jobId = await submit({ "reproduce.sh": "echo ok\n" });
    for (const authorization of [`Bearer ${runnerToken}`, "Bearer rst_job_nonsense"]) {
      const res = await fetch(`${studio.url}/api/runner/jobs/${jobId}/submission`, { headers: { authorization } });
      expect(res.status).toBe(401);
    }
    const withCookie = await fetch(`${studio.url}/api/runner/jobs/${jobId}/submission`, {
      headers: { cookie: studio.staff },
    });
    expect(withCookie.status).toBe(401);
    await waitForJob(studio.url, studio.staff, jobId);
  });
});
