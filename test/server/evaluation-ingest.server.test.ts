/**
 * `npm run evaluation -- ingest --url`: PaperBench's runs folder packed and sent to a running
 * studio with a personal API token, then read back over the API (summary and export).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getUserByEmail } from "@/db/queries/users";
import { numpyMean, standardError } from "@/lib/grading/stats";
import { makePaperBenchRuns } from "@/server/evaluations/paperbench-runs.testutil";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { hostileCases, makeCanary } from "@/server/submissions/hostile-archives.testutil";
import { createApiToken } from "@/server/auth/api-tokens";
import { testDatabaseKinds } from "@/test/databases";
import { DEMO_PAPER_ID, ROOT, STAFF, api, signIn } from "./harness";
import { studioSuite } from "./studio-suite";
import { cliArgs } from "@/test/cli-process";

/** The CLI as a process (async: the studio answering it runs in this test's event loop's children). */
function runEvaluationCli(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgs("evaluation-cli", ...args), { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe.each(testDatabaseKinds())("evaluation ingest through a running studio on %s", (kind) => {
  let token = "";
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-evaluation-server-"));
  // Registered before studioSuite, so it runs last (afterAll hooks run in reverse order): after the
  // studio, whose BLOB_DIR is in here, has stopped.
  afterAll(async () => {
    fs.rmSync(work, { recursive: true, force: true });
  });
  const studio = studioSuite(kind, "evaluation-ingest", {
    setup: async (handle) => {
      const staff = await getUserByEmail(handle, STAFF.email);
      token = (await createApiToken({ db: handle, kind }, { userId: staff!.id, name: "ingest" })).token;
    },
    env: { BLOB_DIR: path.join(work, "blobs") },
    signInStaff: false,
  });

  it("prints the scores of each run, and the studio's summary and export say the same", async () => {
    const runsDir = path.join(work, "runs");
    const made = await makePaperBenchRuns(runsDir, [[1, 0.5], [0], [1]]);
    const scores = made.map((m) => m.score!);
    const env = { ...process.env, STUDIO_TOKEN: token, DATABASE_URL: "", DATA_DIR: path.join(work, "not-used") };
    const out = await runEvaluationCli(
      env,
      "ingest",
      runsDir,
      "--agent",
      "BasicAgent · over http",
      "--url",
      studio.url,
      "--policies",
      JSON.stringify({ reproduction_failed: "exclude", reproduction_timed_out: "zero", judge_invalid_leaves: "zero" }),
    );
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.trim().split("\n");
    const result = JSON.parse(lines[lines.length - 1]);
    expect(result).toMatchObject({
      agent: "BasicAgent · over http",
      runs: 3,
      papers: { [DEMO_PAPER_ID]: scores },
      runScores: scores,
    });
    expect(result.mean).toBe(numpyMean(scores));
    expect(result.se).toBe(standardError(scores));
    // The CLI never opened a database of its own.
    expect(fs.existsSync(path.join(work, "not-used"))).toBe(false);

    const cookie = await signIn(studio.url, STAFF.email, STAFF.password);
    const summary = await api<{
      result: { mean: number; runScores: number[] };
      policy: Record<string, string>;
      cells: { state: string }[];
    }>(studio.url, cookie, "GET", `/api/evaluations/${result.evaluationId}`);
    expect(summary.status).toBe(200);
    expect(summary.body.result.mean).toBe(result.mean);
    expect(summary.body.policy.reproduction_failed).toBe("exclude");
    expect(summary.body.cells.map((c) => c.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const csv = await fetch(`${studio.url}/api/evaluations/${result.evaluationId}/export?format=csv`, {
      headers: { cookie },
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect((await csv.text()).trim().split("\r\n")).toHaveLength(4);

    const badToken = await runEvaluationCli(
      { ...env, STUDIO_TOKEN: "rst_user_nope" },
      "ingest",
      runsDir,
      "--agent",
      "x",
      "--url",
      studio.url,
    );
    expect(badToken.status).toBe(1);
    expect(badToken.stderr).toContain("401");
  });
  it("a hostile runs archive over HTTP (a chain of links to a host grade.json, an absolute link, a/../b, absolute and ../ names) is a 400 naming the entry; no evaluation is made", async () => {
    const canary = makeCanary();
    await makePaperBenchRuns(path.join(canary.dir, "runs"), [[1]]);
    const group = fs.readdirSync(path.join(canary.dir, "runs"))[0];
    const grade = path.join(
      canary.dir,
      "runs",
      group,
      fs.readdirSync(path.join(canary.dir, "runs", group))[0],
      "grade.json",
    );
    const cookie = await signIn(studio.url, STAFF.email, STAFF.password);
    const before = await api<{ evaluations: unknown[] }>(studio.url, cookie, "GET", "/api/evaluations");
    for (const hostile of hostileCases(
      `runs/${group}/${DEMO_PAPER_ID}_00000009-aaaa-bbbb-cccc-dddddddddddd/`,
      "grade.json",
      grade,
      canary.dir,
    )) {
      const res = await fetch(`${studio.url}/api/evaluations/ingest?agent=${encodeURIComponent("hostile")}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
        body: new Uint8Array(await makeTarGz(hostile.entries)),
      });
      const text = await res.text();
      expect(res.status, `${hostile.what}: ${text}`).toBe(400);
      expect(JSON.parse(text).error.message, hostile.what).toContain(`entry ${JSON.stringify(hostile.entry)}`);
      expect(JSON.parse(text).error.message, hostile.what).toMatch(hostile.refusal);
      if (hostile.planted) expect(fs.existsSync(hostile.planted)).toBe(false);
    }
    const after = await api<{ evaluations: unknown[] }>(studio.url, cookie, "GET", "/api/evaluations");
    expect(after.body.evaluations).toHaveLength(before.body.evaluations.length);
    fs.rmSync(canary.dir, { recursive: true, force: true });
  });
});
