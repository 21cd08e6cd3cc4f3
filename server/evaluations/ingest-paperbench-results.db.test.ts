import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { importGrading } from "@/server/gradings/import-grading";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { makeTarGz, type TestEntry } from "@/server/submissions/archive.testutil";
import { hostileCases, makeCanary, makeChainOnDisk } from "@/server/submissions/hostile-archives.testutil";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { createEvaluation } from "./create-evaluation";
import { exportEvaluation } from "./export-evaluation";
import { ingestPaperBenchArchiveRequest } from "./ingest-paperbench-archive";
import { ingestPaperBenchResults } from "./ingest-paperbench-results";
import { DEMO_DIR, DEMO_PAPER, makePaperBenchRuns } from "./paperbench-runs.testutil";
import { readEvaluationSummary } from "./read-evaluation";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-evaluations-"));

const PATTERNS = [[1, 0, 0.5], [1], [0, 0, 1, 0.5]] as const;

async function count(handle: DbHandle, table: string): Promise<number> {
  const result = await handle.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`));
  return Number((result.rows[0] as { n: number }).n);
}

describe.each(testDatabaseKinds())("PaperBench results ingest on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;
  let work: string;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: staffId, source: "test" });
    work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-pb-runs-"));
  });
  afterAll(async () => {
    await handle?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("three run groups × the demo paper: the scores of importing each judge output alone, per run in run-group order, mean and se by hand", async () => {
    const runsDir = path.join(work, "runs");
    const made = await makePaperBenchRuns(runsDir, PATTERNS, [
      null,
      { timedout: false, repro_script_exists: true, repro_execution_time: 12.5 },
      null,
    ]);
    // Each judge output alone, through the grading import, under another agent.
    const alone: number[] = [];
    for (let i = 0; i < made.length; i++) {
      const r = await importGrading(handle, {
        paperId: DEMO_PAPER,
        agentName: "alone",
        runIndex: i + 1,
        variant: "full",
        human: false,
        fileText: made[i].judgeOutputText!,
        userId: staffId,
      });
      alone.push(r.score);
    }
    expect(new Set(alone).size).toBe(3);

    const { result, summary } = await ingestPaperBenchResults(handle, {
      runsDir,
      agent: "BasicAgent · ingest",
      userId: staffId,
    });
    expect(result.agent).toBe("BasicAgent · ingest");
    expect(result.runs).toBe(3);
    expect(result.papers).toEqual({ [DEMO_PAPER]: alone });
    expect(result.runScores).toEqual(alone);
    const mean = (alone[0] + alone[1] + alone[2]) / 3;
    const sd = Math.sqrt(((alone[0] - mean) ** 2 + (alone[1] - mean) ** 2 + (alone[2] - mean) ** 2) / 2);
    expect(result.mean).toBeCloseTo(mean, 15);
    expect(result.se).toBeCloseTo(sd / Math.sqrt(3), 15);

    // The submissions hold the latest timestamp's archive, through the upload's checks and the blob store.
    expect(summary.cells.map((c) => [c.run, c.state])).toEqual([
      [1, "succeeded"],
      [2, "succeeded"],
      [3, "succeeded"],
    ]);
    const files = await handle.db.execute(sql`
      SELECT f.path FROM submission_files f JOIN submissions s ON s.id = f.submission_id
      WHERE s.evaluation_id = ${result.evaluationId} ORDER BY s.run_index, f.path`);
    expect((files.rows as { path: string }[]).map((r) => r.path)).toEqual([
      "README.md",
      "reproduce.sh",
      "README.md",
      "reproduce.sh",
      "README.md",
      "reproduce.sh",
    ]);
    const stored = await handle.db.execute(
      sql`SELECT archive_sha256, imported_result FROM submissions WHERE evaluation_id = ${result.evaluationId} ORDER BY run_index`,
    );
    const rows = stored.rows as { archive_sha256: string | null; imported_result: Record<string, unknown> }[];
    expect(rows.every((r) => r.archive_sha256 !== null)).toBe(true);
    expect(rows[1].imported_result).toMatchObject({
      runGroupId: made[1].runGroupId,
      reproduction: { repro_execution_time: 12.5 },
      judgeOutputMissing: false,
    });

    const read = await readEvaluationSummary(handle, result.evaluationId);
    expect(read.result.mean).toBe(result.mean);
    expect(read.policy.reproduction_failed).toBe("count as 0");
    const csv = (await exportEvaluation(handle, result.evaluationId, "csv")).body.trim().split("\r\n");
    expect(csv).toHaveLength(4);
    expect(csv[1].startsWith(`${DEMO_PAPER},1,${made[0].runGroupId},succeeded,${alone[0]},${alone[0]},,0,`)).toBe(true);
    const json = JSON.parse((await exportEvaluation(handle, result.evaluationId, "json")).body);
    expect(json.per_paper[DEMO_PAPER].scores).toEqual(alone);
    expect(json.overall.std_err).toBe(result.se);
  });

  it("a run with nothing judged (no judge output, a timed-out run without one) follows the policy: zero vs exclude; a judged timed-out run counts its score", async () => {
    for (const policy of ["zero", "exclude"] as const) {
      const runsDir = path.join(work, `failing-${policy}`);
      await makePaperBenchRuns(
        runsDir,
        [[1], null, null, [0.5]],
        [null, null, { timedout: true, repro_script_exists: true }, { timedout: true, repro_script_exists: true }],
      );
      const { result, summary } = await ingestPaperBenchResults(handle, {
        runsDir,
        agent: `failing ${policy}`,
        userId: staffId,
        policies: {
          reproduction_failed: policy,
          reproduction_timed_out: policy,
          judge_invalid_leaves: "zero",
          blacklisted: "zero",
        },
      });
      // PaperBench judged the 4th run despite its timeout: its score stands, whatever the policy.
      expect(summary.cells.map((c) => c.state)).toEqual(["succeeded", "failed", "timed_out", "succeeded"]);
      expect(result.papers[DEMO_PAPER]).toEqual([1, null, null, 0.5]);
      if (policy === "zero") {
        expect(result.runScores).toEqual([1, 0, 0, 0.5]);
        expect(result.mean).toBeCloseTo(1.5 / 4, 15);
      } else {
        expect(result.runScores).toEqual([1, null, null, 0.5]);
        expect(result.mean).toBe(0.75);
        expect(summary.result.excluded.map((e) => e.reason)).toEqual([
          "excluded: reproduction failed",
          "excluded: reproduction timed out",
        ]);
      }
    }
  });

  it("the executed files of the latest submission folder: its metadata over the grade's, its archive in the blob store, its grader output when the grade has none", async () => {
    const runsDir = path.join(work, "executed");
    const made = await makePaperBenchRuns(
      runsDir,
      [[1], [0.5]],
      [{ timedout: false, repro_script_exists: true }, null],
      [
        { metadata: { timedout: true, repro_script_exists: true, repro_execution_time: 86400 }, graderOutput: false },
        { metadata: { timedout: false, repro_script_exists: true, repro_execution_time: 60 }, graderOutput: true },
      ],
    );
    const { result, summary } = await ingestPaperBenchResults(handle, { runsDir, agent: "executed", userId: staffId });
    // The executed metadata (timed out) is read over the grade's; the run was judged all the same, so its score counts, as PaperBench counts it.
    expect(summary.cells.map((c) => [c.state, c.score])).toEqual([
      ["succeeded", made[0].score],
      ["succeeded", made[1].score],
    ]);
    expect(summary.cells[0].imported?.reproduction).toMatchObject({ timedout: true, repro_execution_time: 86400 });
    expect(result.runScores).toEqual([made[0].score, made[1].score]);
    expect(summary.result.counted[0].note).toBeNull();
    const stored = await handle.db.execute(sql`
      SELECT s.executed_archive_sha256, b.sha256 AS blob FROM submissions s LEFT JOIN blobs b ON b.sha256 = s.executed_archive_sha256
      WHERE s.evaluation_id = ${result.evaluationId} ORDER BY s.run_index`);
    for (const row of stored.rows as { executed_archive_sha256: string | null; blob: string | null }[]) {
      expect(row.executed_archive_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(row.blob).toBe(row.executed_archive_sha256);
    }
  });

  it("refuses a folder naming a paper the studio lacks, or runs the agent already has, before writing anything", async () => {
    const runsDir = path.join(work, "unknown");
    await makePaperBenchRuns(runsDir, [[1]]);
    const grade = path.join(runsDir, fs.readdirSync(runsDir)[0]);
    const runDir = path.join(grade, fs.readdirSync(grade)[0], "grade.json");
    fs.writeFileSync(
      runDir,
      fs.readFileSync(runDir, "utf8").replace(`"paper_id": "${DEMO_PAPER}"`, '"paper_id": "no-such-paper"'),
    );
    const before = [
      await count(handle, "evaluations"),
      await count(handle, "submissions"),
      await count(handle, "gradings"),
    ];
    const err = await ingestPaperBenchResults(handle, { runsDir, agent: "never", userId: staffId }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toContain('no paper with id "no-such-paper"');
    const again = await ingestPaperBenchResults(handle, {
      runsDir: path.join(work, "runs"),
      agent: "BasicAgent · ingest",
      userId: staffId,
    }).catch((e: unknown) => e);
    expect((again as AppError).code).toBe("conflict");
    expect([
      await count(handle, "evaluations"),
      await count(handle, "submissions"),
      await count(handle, "gradings"),
    ]).toEqual(before);
  });

  it("the API's archive of the runs folder gives the same evaluation as the folder", async () => {
    const runsDir = path.join(work, "archived");
    const made = await makePaperBenchRuns(runsDir, PATTERNS);
    const entries: { name: string; data: Buffer }[] = [];
    const walk = (dir: string, rel: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(dir, e.name), `${rel}${e.name}/`);
        else entries.push({ name: `${rel}${e.name}`, data: fs.readFileSync(path.join(dir, e.name)) });
      }
    };
    walk(runsDir, "runs/");
    const body = await makeTarGz(entries);
    const req = new Request(`http://studio.test/api/evaluations/ingest?agent=${encodeURIComponent("via api")}`, {
      method: "POST",
      headers: { "content-type": "application/gzip" },
      body: new Uint8Array(body),
    });
    const result = await ingestPaperBenchArchiveRequest(handle, req, staffId);
    expect(result.papers[DEMO_PAPER]).toEqual(made.map((m) => m.score));
  });

  /** A host folder with a valid grade.json whose run id is the canary's secret (as a private key would show in a summary). */
  async function canaryRuns(): Promise<{ dir: string; secret: string; grade: string; entries: TestEntry[] }> {
    const canary = makeCanary();
    await makePaperBenchRuns(path.join(canary.dir, "runs"), [[1]]);
    const groupDir = path.join(canary.dir, "runs", fs.readdirSync(path.join(canary.dir, "runs"))[0]);
    const grade = path.join(groupDir, fs.readdirSync(groupDir)[0], "grade.json");
    const json = JSON.parse(fs.readFileSync(grade, "utf8"));
    json.paperbench_result.run_id = canary.secret;
    fs.writeFileSync(grade, JSON.stringify(json));
    // A real run beside the hostile one, so the archive is otherwise one the ingest takes.
    const real = path.join(work, `real-${Math.random()}`);
    await makePaperBenchRuns(real, [[0.5]]);
    const entries: TestEntry[] = [];
    const walk = (dir: string, rel: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(dir, e.name), `${rel}${e.name}/`);
        else entries.push({ name: `${rel}${e.name}`, data: fs.readFileSync(path.join(dir, e.name)) });
      }
    };
    walk(real, "runs/");
    return { ...canary, grade, entries };
  }

  async function storedSecret(secret: string): Promise<number> {
    const result = await handle.db.execute(
      sql`SELECT count(*)::int AS n FROM submissions WHERE imported_result::text LIKE ${`%${secret}%`}`,
    );
    return Number((result.rows[0] as { n: number }).n);
  }

  it("a hostile runs archive (a chain of links out, an absolute link, a/../b, an absolute name, ../ names) is a 400 naming the entry and the rule; nothing is written, no host file is read", async () => {
    const canary = await canaryRuns();
    const before = [
      await count(handle, "evaluations"),
      await count(handle, "submissions"),
      await count(handle, "gradings"),
    ];
    const prefix = `runs/2025-04-09T10-00-00-UTC_run-group_hostile/${DEMO_PAPER}_00000009-aaaa-bbbb-cccc-dddddddddddd/`;
    for (const hostile of hostileCases(prefix, "grade.json", canary.grade, canary.dir)) {
      const req = new Request(`http://studio.test/api/evaluations/ingest?agent=${encodeURIComponent("hostile")}`, {
        method: "POST",
        body: new Uint8Array(await makeTarGz([...canary.entries, ...hostile.entries])),
      });
      const err = (await ingestPaperBenchArchiveRequest(handle, req, staffId).catch((e: unknown) => e)) as AppError;
      expect(err, hostile.what).toBeInstanceOf(AppError);
      expect(err.status, hostile.what).toBe(400);
      expect(err.message, hostile.what).toContain(`entry ${JSON.stringify(hostile.entry)}`);
      expect(err.message, hostile.what).toMatch(hostile.refusal);
      if (hostile.planted) expect(fs.existsSync(hostile.planted), hostile.what).toBe(false);
    }
    expect([
      await count(handle, "evaluations"),
      await count(handle, "submissions"),
      await count(handle, "gradings"),
    ]).toEqual(before);
    expect(await storedSecret(canary.secret)).toBe(0);
    fs.rmSync(canary.dir, { recursive: true, force: true });
  });

  it("a runs folder whose grade.json, submission or executed file is a link (absolute, or the end of a chain out) is a 400 naming it; no host file is read", async () => {
    const canary = await canaryRuns();
    const before = [
      await count(handle, "evaluations"),
      await count(handle, "submissions"),
      await count(handle, "gradings"),
    ];
    const cases: [string, (runDir: string, latest: string) => string][] = [
      [
        "grade.json",
        (runDir) => {
          fs.rmSync(path.join(runDir, "grade.json"));
          fs.symlinkSync(canary.grade, path.join(runDir, "grade.json"));
          return "grade.json";
        },
      ],
      [
        "a chain to grade.json",
        (runDir) => {
          fs.rmSync(path.join(runDir, "grade.json"));
          fs.symlinkSync(makeChainOnDisk(runDir, canary.grade), path.join(runDir, "grade.json"));
          return "grade.json";
        },
      ],
      [
        "the submission archive",
        (_runDir, latest) => {
          fs.rmSync(path.join(latest, "submission.tar.gz"));
          fs.symlinkSync(path.join(canary.dir, "id_rsa"), path.join(latest, "submission.tar.gz"));
          return "submissions/2025-04-01T12-00-00-UTC/submission.tar.gz";
        },
      ],
      [
        "the executed metadata",
        (_runDir, latest) => {
          fs.symlinkSync(canary.grade, path.join(latest, "submission_executed_metadata.json"));
          return "submissions/2025-04-01T12-00-00-UTC/submission_executed_metadata.json";
        },
      ],
    ];
    for (const [what, plant] of cases) {
      const runsDir = path.join(work, `linked-${what.replace(/\W+/g, "-")}`);
      const [made] = await makePaperBenchRuns(runsDir, [[1]]);
      const runDir = path.join(runsDir, made.runGroupId, made.runId);
      const linked = plant(runDir, path.join(runDir, "submissions", "2025-04-01T12-00-00-UTC"));
      const err = (await ingestPaperBenchResults(handle, { runsDir, agent: `linked ${what}`, userId: staffId }).catch(
        (e: unknown) => e,
      )) as AppError;
      expect(err, what).toBeInstanceOf(AppError);
      expect(err.status, what).toBe(400);
      expect(err.details, what).toEqual([
        {
          path: `${made.runGroupId}/${made.runId}/${linked}`,
          message: "is a link: links in an upload are not followed",
        },
      ]);
    }
    expect([
      await count(handle, "evaluations"),
      await count(handle, "submissions"),
      await count(handle, "gradings"),
    ]).toEqual(before);
    expect(await storedSecret(canary.secret)).toBe(0);
    fs.rmSync(canary.dir, { recursive: true, force: true });
  });

  it("create: a named split takes its papers, an unknown split is a 400 naming the field", async () => {
    const created = await createEvaluation(
      handle,
      { name: "debug", agent: "BasicAgent · ingest", split: "custom", paperIds: [DEMO_PAPER], runs: 3 },
      staffId,
    );
    expect(created.policies).toEqual({
      reproduction_failed: "zero",
      reproduction_timed_out: "zero",
      judge_invalid_leaves: "zero",
      blacklisted: "zero",
    });
    const err = await createEvaluation(
      handle,
      { name: "x", agent: "a", split: "no-such-split", runs: 1 },
      staffId,
    ).catch((e: unknown) => e);
    expect((err as AppError).code).toBe("bad_request");
    expect((err as AppError).details[0]).toMatchObject({ path: "split" });
    const bad = await createEvaluation(handle, { name: "x", agent: "a", runs: 0 }, staffId).catch((e: unknown) => e);
    expect((bad as AppError).details[0]).toMatchObject({ path: "runs" });
    const missing = await readEvaluationSummary(handle, "not-a-uuid").catch((e: unknown) => e);
    expect((missing as AppError).code).toBe("not_found");
  });
});
