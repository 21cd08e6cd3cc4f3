/**
 * `npm run evaluation -- upload --url`: a manifest (with the files it names gathered beside it) and
 * PaperBench's run groups without grades, sent to a running studio's
 * `POST /api/evaluations/<id>/submissions` with a personal API token; the summary shows the cells.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getUserByEmail } from "@/db/queries/users";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { hostileCases, makeCanary } from "@/server/submissions/hostile-archives.testutil";
import { createApiToken } from "@/server/auth/api-tokens";
import { testDatabaseKinds } from "@/test/databases";
import { DEMO_PAPER_ID, ROOT, STAFF, api, signIn } from "./harness";
import { studioSuite } from "./studio-suite";
import { cliArgs } from "@/test/cli-process";

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

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!);

describe.each(testDatabaseKinds())("bulk upload through a running studio on %s", (kind) => {
  let token = "";
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-bulk-server-"));
  // Registered before studioSuite, so it runs last (afterAll hooks run in reverse order): after the
  // studio, whose BLOB_DIR is in here, has stopped.
  afterAll(async () => {
    fs.rmSync(work, { recursive: true, force: true });
  });
  const studio = studioSuite(kind, "evaluation-bulk", {
    setup: async (handle) => {
      const staff = await getUserByEmail(handle, STAFF.email);
      token = (await createApiToken({ db: handle, kind }, { userId: staff!.id, name: "bulk" })).token;
    },
    env: { BLOB_DIR: path.join(work, "blobs") },
    signInStaff: false,
  });

  it("a manifest naming an absolute path and a folder beside it fills the evaluation over HTTP; a run group for a filled run is refused; the summary holds the cells", async () => {
    const cookie = await signIn(studio.url, STAFF.email, STAFF.password);
    const created = await api<{ evaluation: { id: string } }>(studio.url, cookie, "POST", "/api/evaluations", {
      name: "bulk over http",
      agent: "Bulk · http",
      paperIds: [DEMO_PAPER_ID],
      runs: 3,
    });
    expect(created.status).toBe(201);
    const id = created.body.evaluation.id;
    const env = { ...process.env, STUDIO_TOKEN: token, DATABASE_URL: "", DATA_DIR: path.join(work, "not-used") };

    const elsewhere = path.join(work, "elsewhere");
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.writeFileSync(
      path.join(elsewhere, "one.tar.gz"),
      await makeTarGz([{ name: "reproduce.sh", data: "echo one\n" }]),
    );
    fs.cpSync(path.join(ROOT, "rubrics", "demo", "submission"), path.join(work, "manifest", "two"), {
      recursive: true,
    });
    const manifest = path.join(work, "manifest", "cells.csv");
    fs.writeFileSync(
      manifest,
      `paper_id,run,path\n${DEMO_PAPER_ID},1,${path.join(elsewhere, "one.tar.gz")}\n${DEMO_PAPER_ID},2,two\n`,
    );
    const fromManifest = await runEvaluationCli(env, "upload", manifest, "--evaluation", id, "--url", studio.url);
    expect(fromManifest.status, fromManifest.stderr).toBe(0);
    expect(lastJson(fromManifest.stdout)).toMatchObject({
      evaluationId: id,
      layout: "manifest",
      cells: [
        { paperId: DEMO_PAPER_ID, run: 1 },
        { paperId: DEMO_PAPER_ID, run: 2 },
      ],
    });
    expect(fs.existsSync(path.join(work, "not-used"))).toBe(false);

    // A run group sent alone is run 1, which the manifest filled: a 409, and nothing more is written.
    const group = path.join(
      work,
      "runs",
      "group-c",
      `${DEMO_PAPER_ID}_00000001-aaaa-4bbb-8ccc-dddddddddddd`,
      "submissions",
      "2025-04-01T12-00-00-UTC",
    );
    fs.mkdirSync(group, { recursive: true });
    fs.writeFileSync(
      path.join(group, "submission.tar.gz"),
      await makeTarGz([{ name: "reproduce.sh", data: "echo three\n" }]),
    );
    const again = await runEvaluationCli(
      env,
      "upload",
      path.join(work, "runs"),
      "--evaluation",
      id,
      "--url",
      studio.url,
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("409");

    const summary = await api<{ cells: { paperId: string; run: number }[] }>(
      studio.url,
      cookie,
      "GET",
      `/api/evaluations/${id}`,
    );
    expect(summary.body.cells.map((c) => c.run)).toEqual([1, 2]);
  }, 180_000);
  it("a hostile archive body over HTTP (links out, a/../b, absolute and ../ names, a failing tar) is a 400 naming the entry, never a 500; no host file reaches a submission", async () => {
    const cookie = await signIn(studio.url, STAFF.email, STAFF.password);
    const created = await api<{ evaluation: { id: string } }>(studio.url, cookie, "POST", "/api/evaluations", {
      name: "hostile bulk",
      agent: "Bulk · hostile",
      paperIds: [DEMO_PAPER_ID],
      runs: 1,
    });
    const id = created.body.evaluation.id;
    const canary = makeCanary();
    const post = (body: Buffer) =>
      fetch(`${studio.url}/api/evaluations/${id}/submissions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
        body: new Uint8Array(body),
      });
    const cases = [
      ...hostileCases(`${DEMO_PAPER_ID}/1/`, "submission", canary.dir, canary.dir),
      {
        what: "a hard link tar cannot make",
        entries: [{ name: `${DEMO_PAPER_ID}/1/submission/copy`, type: "link" as const, linkname: "nowhere" }],
        entry: "",
        refusal: /could not be extracted: tar:/,
      },
    ];
    for (const hostile of cases) {
      const res = await post(await makeTarGz(hostile.entries));
      const text = await res.text();
      expect(res.status, `${hostile.what}: ${text}`).toBe(400);
      const error = JSON.parse(text).error as { message: string };
      if (hostile.entry) expect(error.message, hostile.what).toContain(`entry ${JSON.stringify(hostile.entry)}`);
      expect(error.message, hostile.what).toMatch(hostile.refusal);
      expect(text).not.toContain(canary.secret);
    }
    const summary = await api<{ cells: { submissionId: string | null }[] }>(
      studio.url,
      cookie,
      "GET",
      `/api/evaluations/${id}`,
    );
    expect(summary.body.cells.filter((c) => c.submissionId !== null)).toEqual([]);
    fs.rmSync(canary.dir, { recursive: true, force: true });
  }, 180_000);
});
