import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createPaper } from "@/db/queries/papers";
import { getSubmissionById } from "@/db/queries/submissions";
import { createUser } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { paperCreateSchema } from "@/lib/papers/schemas";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { CHAIN, hostileCases, makeCanary, makeChainOnDisk } from "@/server/submissions/hostile-archives.testutil";
import { packDirectory } from "@/server/submissions/pack-directory";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { createEvaluation } from "../create-evaluation";
import { DEMO_DIR, DEMO_PAPER, makePaperBenchRuns } from "../paperbench-runs.testutil";
import { readEvaluationSummary } from "../read-evaluation";
import { bulkUploadIntoEvaluation } from "./bulk-upload";
import { bulkUploadRequest } from "./bulk-upload-request";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-bulk-upload-"));

const OTHER_PAPER = "other-paper";
const DEMO_SUBMISSION = path.join(DEMO_DIR, "submission");
const UUID = (n: number) => `0000000${n}-aaaa-4bbb-8ccc-dddddddddddd`;

async function count(handle: DbHandle, table: string): Promise<number> {
  const result = await handle.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`));
  return Number((result.rows[0] as { n: number }).n);
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function write(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
}

/** The folder packed as the request body of `POST /api/evaluations/<id>/submissions`. */
async function requestOf(dir: string, evaluationId: string): Promise<Request> {
  const archive = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rs-bulk-body-")), "upload.tar.gz");
  await packDirectory(dir, archive);
  const body = fs.readFileSync(archive);
  fs.rmSync(path.dirname(archive), { recursive: true, force: true });
  return new Request(`http://studio.test/api/evaluations/${evaluationId}/submissions`, {
    method: "POST",
    headers: { "content-type": "application/gzip" },
    body,
  });
}

describe.each(testDatabaseKinds())("bulk upload into an evaluation on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;
  let work: string;
  let agents = 0;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: staffId, source: "test" });
    await createPaper(handle.db, paperCreateSchema.parse({ id: OTHER_PAPER, title: "Another paper" }), staffId);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-bulk-layouts-"));
  });
  afterAll(async () => {
    await handle?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** A fresh agent each time, so cells of one test never collide with another's. */
  const newEvaluation = (fields: { runs: number; paperIds?: string[] }) =>
    createEvaluation(
      handle,
      {
        name: `bulk ${++agents}`,
        agent: `Bulk agent ${agents}`,
        paperIds: fields.paperIds ?? [DEMO_PAPER],
        runs: fields.runs,
      },
      staffId,
    );
  const folder = (name: string) => {
    const dir = path.join(work, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  it("PaperBench run groups without grades, sent as an archive body: each group (by name) is a run, the latest submissions/<ts>/ wins, a submission/ folder is packed, an attempt's agent.log is scanned, an attempt without a submission is skipped", async () => {
    const evaluation = await newEvaluation({ runs: 2 });
    const root = folder("pb-runs");
    const real = await makeTarGz([{ name: "reproduce.sh", data: "echo latest\n" }]);
    // Written in reverse so that only sorting puts group "a" first.
    write(path.join(root, "group-b", `${DEMO_PAPER}_${UUID(2)}`, "submission", "reproduce.sh"), "echo from a folder\n");
    write(
      path.join(root, "group-b", `${DEMO_PAPER}_${UUID(2)}`, "agent.log"),
      "step 3: fetching https://github.com/example-lab/adaptive-clipping/blob/main/train.py\n",
    );
    write(path.join(root, "group-b", `${OTHER_PAPER}_${UUID(3)}`, "agent.log"), "gave up\n");
    write(
      path.join(
        root,
        "group-a",
        `${DEMO_PAPER}_${UUID(1)}`,
        "submissions",
        "2025-04-01T11-00-00-UTC",
        "submission.tar.gz",
      ),
      await makeTarGz([{ name: "STALE", data: "old\n" }]),
    );
    write(
      path.join(
        root,
        "group-a",
        `${DEMO_PAPER}_${UUID(1)}`,
        "submissions",
        "2025-04-01T12-00-00-UTC",
        "submission.tar.gz",
      ),
      real,
    );

    const result = await bulkUploadRequest(handle, await requestOf(root, evaluation.id), evaluation.id, staffId);
    expect(result.layout).toBe("paperbench-runs");
    expect(result.cells.map((c) => [c.paperId, c.run, c.source])).toEqual([
      [DEMO_PAPER, 1, `group-a/${DEMO_PAPER}_${UUID(1)}/submissions/2025-04-01T12-00-00-UTC/submission.tar.gz`],
      [DEMO_PAPER, 2, `group-b/${DEMO_PAPER}_${UUID(2)}/submission`],
    ]);
    expect(result.cells[0].sha256).toBe(sha256(real));
    expect(result.skipped).toEqual([
      { where: `group-b/${OTHER_PAPER}_${UUID(3)}`, reason: expect.stringContaining("no submission") },
    ]);
    const second = await getSubmissionById(handle.db, result.cells[1].submissionId);
    expect(second?.evaluationId).toBe(evaluation.id);
    // The attempt's agent.log went with it: the blacklisted repository is flagged with its line.
    expect(second?.flags?.blacklist).toMatchObject({ totalHits: 1, log: "agent.log" });
    expect((await getSubmissionById(handle.db, result.cells[0].submissionId))?.flags?.blacklist ?? null).toBeNull();
    const summary = await readEvaluationSummary(handle, evaluation.id);
    expect(summary.cells.map((c) => [c.paperId, c.run, c.submissionId, c.state])).toEqual(
      result.cells.map((c) => [c.paperId, c.run, c.submissionId, "pending"]),
    );
  });

  it("<paper>/<run>/submission/ folders, each packed as its run's submission", async () => {
    const evaluation = await newEvaluation({ runs: 3, paperIds: [DEMO_PAPER, OTHER_PAPER] });
    const root = folder("paper-runs");
    for (const [paper, run] of [
      [DEMO_PAPER, 1],
      [DEMO_PAPER, 3],
      [OTHER_PAPER, 2],
    ] as const)
      fs.cpSync(DEMO_SUBMISSION, path.join(root, paper, String(run), "submission"), { recursive: true });
    const result = await bulkUploadIntoEvaluation(handle, {
      evaluationId: evaluation.id,
      source: root,
      userId: staffId,
    });
    expect(result.layout).toBe("paper-run-folders");
    expect(result.cells.map((c) => [c.paperId, c.run, c.files])).toEqual([
      [DEMO_PAPER, 1, 3],
      [DEMO_PAPER, 3, 3],
      [OTHER_PAPER, 2, 3],
    ]);
    expect((await readEvaluationSummary(handle, evaluation.id)).cells).toHaveLength(3);
  });

  it("a manifest.csv at the root (quoted fields, columns in any order) naming archives and folders; the CLI's manifest may name an absolute path", async () => {
    const evaluation = await newEvaluation({ runs: 2 });
    const root = folder("manifest");
    write(
      path.join(root, "archives", "first run.tar.gz"),
      await makeTarGz([{ name: "reproduce.sh", data: "echo 1\n" }]),
    );
    fs.cpSync(DEMO_SUBMISSION, path.join(root, "second"), { recursive: true });
    write(
      path.join(root, "manifest.csv"),
      `path,paper_id,run\r\n"archives/first run.tar.gz",${DEMO_PAPER},1\r\nsecond/,${DEMO_PAPER},2\r\n`,
    );
    const result = await bulkUploadIntoEvaluation(handle, {
      evaluationId: evaluation.id,
      source: root,
      userId: staffId,
    });
    expect(result.layout).toBe("manifest");
    expect(result.cells.map((c) => [c.run, c.source, c.files])).toEqual([
      [1, "manifest.csv:2 (archives/first run.tar.gz)", 1],
      [2, "manifest.csv:3 (second)", 3],
    ]);

    const cli = await newEvaluation({ runs: 1 });
    const elsewhere = folder("cli-manifest");
    write(path.join(elsewhere, "cells.csv"), `paper_id,run,path\n${DEMO_PAPER},1,${DEMO_SUBMISSION}\n`);
    const refused = (await bulkUploadIntoEvaluation(handle, {
      evaluationId: cli.id,
      source: path.join(elsewhere, "cells.csv"),
      userId: staffId,
    }).catch((e: unknown) => e)) as AppError;
    expect(refused.details).toEqual([{ path: "cells.csv:2:path", message: expect.stringContaining("relative") }]);
    const local = await bulkUploadIntoEvaluation(handle, {
      evaluationId: cli.id,
      source: path.join(elsewhere, "cells.csv"),
      userId: staffId,
      allowAbsolutePaths: true,
    });
    expect(local.cells.map((c) => [c.paperId, c.run])).toEqual([[DEMO_PAPER, 1]]);
  });

  it("refusals name what and where and write nothing: unknown paper, run out of 1..N, duplicate cell, paper not in the split, a bad manifest row, an unsafe entry, graded results, a run that already has its archive", async () => {
    const evaluation = await newEvaluation({ runs: 2 });
    const tables = ["submissions", "submission_files", "blobs", "agents"];
    const before = await Promise.all(tables.map((t) => count(handle, t)));
    const attempt = async (name: string, files: Record<string, string | Buffer>) => {
      const root = folder(`refused-${name}`);
      for (const [rel, data] of Object.entries(files)) write(path.join(root, rel), data);
      return (await bulkUploadIntoEvaluation(handle, {
        evaluationId: evaluation.id,
        source: root,
        userId: staffId,
      }).catch((e: unknown) => e)) as AppError;
    };
    const script = "echo hi\n";
    const cases: [string, Record<string, string | Buffer>, string, { path: string; message: RegExp }[]][] = [
      [
        "unknown-paper",
        { "no-such-paper/1/submission/reproduce.sh": script },
        "bad_request",
        [{ path: "no-such-paper/1/submission/", message: /no paper with id "no-such-paper"/ }],
      ],
      [
        "run-range",
        { [`${DEMO_PAPER}/3/submission/reproduce.sh`]: script, [`${DEMO_PAPER}/0/submission/reproduce.sh`]: script },
        "bad_request",
        [
          { path: `${DEMO_PAPER}/0`, message: /run number/ },
          { path: `${DEMO_PAPER}/3/submission/`, message: /has 2 run/ },
        ],
      ],
      [
        "duplicate",
        { "a/reproduce.sh": script, "manifest.csv": `paper_id,run,path\n${DEMO_PAPER},1,a\n${DEMO_PAPER},1,a\n` },
        "bad_request",
        [{ path: "manifest.csv:3 (a)", message: /also given by manifest.csv:2/ }],
      ],
      [
        "not-in-split",
        { [`${OTHER_PAPER}/1/submission/reproduce.sh`]: script },
        "bad_request",
        [{ path: `${OTHER_PAPER}/1/submission/`, message: /not in the evaluation's split/ }],
      ],
      [
        "bad-row",
        {
          "a/reproduce.sh": script,
          "manifest.csv": `paper_id,run,path\n${DEMO_PAPER},1,a\n${DEMO_PAPER},two,a\n${DEMO_PAPER},2,../outside\n`,
        },
        "bad_request",
        [
          { path: "manifest.csv:3:run", message: /column run: must be a whole number/ },
          { path: "manifest.csv:4:path", message: /has a \.\. segment in its path/ },
        ],
      ],
      [
        "unsafe",
        { [`${DEMO_PAPER}/1/submission.tar.gz`]: await makeTarGz([{ name: "../escape.sh", data: script }]) },
        "bad_request",
        [{ path: `${DEMO_PAPER}/1/submission.tar.gz`, message: /escape\.sh/ }],
      ],
      [
        "graded",
        { [`group/${DEMO_PAPER}_${UUID(1)}/grade.json`]: "{}" },
        "bad_request",
        [{ path: "body", message: /grade\.json/ }],
      ],
    ];
    for (const [name, files, code, details] of cases) {
      const err = await attempt(name, files);
      expect(err, name).toBeInstanceOf(AppError);
      expect(err.code, name).toBe(code);
      expect(err.details, name).toEqual(
        details.map((d) => ({ path: d.path, message: expect.stringMatching(d.message) })),
      );
      if (name === "graded") expect(err.message).toMatch(/ingest/);
    }
    // Nothing of the unsafe archive, the packed folders or the agent reached a table.
    expect(await Promise.all(tables.map((t) => count(handle, t)))).toEqual(before);

    // A run that already has its archive: 409, and the other cell of the same upload is not written either.
    await bulkUploadIntoEvaluation(handle, {
      evaluationId: evaluation.id,
      source: await filled("first", [1]),
      userId: staffId,
    });
    const submissions = await count(handle, "submissions");
    const conflict = (await bulkUploadIntoEvaluation(handle, {
      evaluationId: evaluation.id,
      source: await filled("again", [1, 2]),
      userId: staffId,
    }).catch((e: unknown) => e)) as AppError;
    expect(conflict.code).toBe("conflict");
    expect(conflict.details).toEqual([
      { path: `${DEMO_PAPER}/1/submission/`, message: expect.stringContaining("already has an archive") },
    ]);
    expect(await count(handle, "submissions")).toBe(submissions);

    // With replace (the evaluation page's re-upload), the run takes the new archive on its own submission.
    const replaced = await bulkUploadIntoEvaluation(handle, {
      evaluationId: evaluation.id,
      source: await filled("replaced", [1]),
      userId: staffId,
      replace: true,
    });
    expect(replaced.cells.map((c) => c.run)).toEqual([1]);
    expect(await count(handle, "submissions")).toBe(submissions);

    const missing = (await bulkUploadIntoEvaluation(handle, {
      evaluationId: "00000000-0000-4000-8000-000000000000",
      source: work,
      userId: staffId,
    }).catch((e: unknown) => e)) as AppError;
    expect(missing.code).toBe("not_found");
  });

  /** No stored file of any submission holds the canary's secret. */
  async function storedWithSecret(secret: string): Promise<number> {
    const result = await handle.db.execute(
      sql`SELECT count(*)::int AS n FROM submission_files WHERE content LIKE ${`%${secret}%`}`,
    );
    return Number((result.rows[0] as { n: number }).n);
  }

  it("a hostile archive body (a chain of links out, an absolute link, a/../b, an absolute name, ../ names; as folders and as a manifest's rows) is a 400 naming the entry and the rule; nothing is written, and no host file is read", async () => {
    const evaluation = await newEvaluation({ runs: 1 });
    const canary = makeCanary();
    const tables = ["submissions", "submission_files", "blobs", "agents"];
    const before = await Promise.all(tables.map((t) => count(handle, t)));
    const layouts = [
      { prefix: `${DEMO_PAPER}/1/`, extra: [] },
      {
        prefix: "cells/",
        extra: [{ name: "manifest.csv", data: `paper_id,run,path\n${DEMO_PAPER},1,cells/submission\n` }],
      },
      { prefix: `group/${DEMO_PAPER}_${UUID(1)}/`, extra: [] },
    ];
    for (const { prefix, extra } of layouts) {
      for (const hostile of hostileCases(prefix, "submission", canary.dir, canary.dir)) {
        const body = await makeTarGz([...extra, ...hostile.entries]);
        const req = new Request(`http://studio.test/api/evaluations/${evaluation.id}/submissions`, {
          method: "POST",
          body: new Uint8Array(body),
        });
        const err = (await bulkUploadRequest(handle, req, evaluation.id, staffId).catch((e: unknown) => e)) as AppError;
        const what = `${prefix}: ${hostile.what}`;
        expect(err, what).toBeInstanceOf(AppError);
        expect(err.status, what).toBe(400);
        expect(err.message, what).toContain(`entry ${JSON.stringify(hostile.entry)}`);
        expect(err.message, what).toMatch(hostile.refusal);
        expect(err.message, what).not.toContain(canary.secret);
        if (hostile.planted) expect(fs.existsSync(hostile.planted), what).toBe(false);
      }
    }
    // tar itself fails (a hard link to a file the archive never holds): a 400 naming the upload, never an error of the server.
    const broken = await makeTarGz([
      { name: `${DEMO_PAPER}/1/submission/copy`, type: "link", linkname: `${DEMO_PAPER}/1/submission/missing` },
    ]);
    const req = new Request(`http://studio.test/api/evaluations/${evaluation.id}/submissions`, {
      method: "POST",
      body: new Uint8Array(broken),
    });
    const failed = (await bulkUploadRequest(handle, req, evaluation.id, staffId).catch((e: unknown) => e)) as AppError;
    expect(failed).toBeInstanceOf(AppError);
    expect(failed.status).toBe(400);
    expect(failed.message).toMatch(/^the upload could not be extracted: tar: .*missing/);

    expect(await Promise.all(tables.map((t) => count(handle, t)))).toEqual(before);
    expect(await storedWithSecret(canary.secret)).toBe(0);
    fs.rmSync(canary.dir, { recursive: true, force: true });
  });

  it("a folder whose layout links out of it (the CLI's folder form): links are never followed, each is a 400 naming it, and no host file is read", async () => {
    const evaluation = await newEvaluation({ runs: 3 });
    const canary = makeCanary();
    const chain = (dir: string) => makeChainOnDisk(dir, canary.dir);
    const before = await count(handle, "submissions");
    const attempt = async (root: string) =>
      (await bulkUploadIntoEvaluation(handle, { evaluationId: evaluation.id, source: root, userId: staffId }).catch(
        (e: unknown) => e,
      )) as AppError;

    // <paper>/<run>/submission as the end of a chain, as an absolute link, and a real folder holding the chain.
    const runs = folder("linked-runs");
    const one = path.join(runs, DEMO_PAPER, "1");
    fs.symlinkSync(chain(one), path.join(one, "submission"));
    fs.mkdirSync(path.join(runs, DEMO_PAPER, "2"), { recursive: true });
    fs.symlinkSync(canary.dir, path.join(runs, DEMO_PAPER, "2", "submission"));
    const err = await attempt(runs);
    expect(err.status).toBe(400);
    expect(err.details).toEqual([
      { path: `${DEMO_PAPER}/1/submission`, message: "is a link: links in an upload are not followed" },
      { path: `${DEMO_PAPER}/2/submission`, message: "is a link: links in an upload are not followed" },
    ]);
    // Links inside a submission folder are packed as links, and held to the rule like an archive's.
    const inside = folder("chain-inside");
    const three = path.join(inside, DEMO_PAPER, "3", "submission");
    write(path.join(three, "reproduce.sh"), "echo hi\n");
    fs.symlinkSync(chain(three), path.join(three, "data"));
    expect((await attempt(inside)).details).toEqual([
      {
        path: `${DEMO_PAPER}/3/submission/`,
        message: expect.stringMatching(/entry "l0" is a link to "sub\/\.\.", with a \.\. segment/),
      },
    ]);

    // PaperBench's attempt folder: the latest submission archive is a link to a host file.
    const pb = folder("linked-pb");
    const attemptDir = path.join(pb, "group", `${DEMO_PAPER}_${UUID(1)}`, "submissions", "2025-04-01T12-00-00-UTC");
    fs.mkdirSync(attemptDir, { recursive: true });
    fs.symlinkSync(path.join(canary.dir, "id_rsa"), path.join(attemptDir, "submission.tar.gz"));
    expect((await attempt(pb)).details).toEqual([
      {
        path: `group/${DEMO_PAPER}_${UUID(1)}/submissions/2025-04-01T12-00-00-UTC/submission.tar.gz`,
        message: "is a link: links in an upload are not followed",
      },
    ]);

    // A manifest.csv that is a link to a host manifest with decoy rows; and a manifest row through the chain.
    const decoy = path.join(canary.dir, "manifest.csv");
    fs.writeFileSync(decoy, `paper_id,run,path\n${DEMO_PAPER},1,${canary.dir}\n`);
    const linkedManifest = folder("linked-manifest");
    fs.symlinkSync(decoy, path.join(linkedManifest, "manifest.csv"));
    expect((await attempt(linkedManifest)).message).toMatch(
      /manifest\.csv is a link: links in an upload are not followed/,
    );
    const throughChain = folder("manifest-through-chain");
    write(path.join(throughChain, "manifest.csv"), `paper_id,run,path\n${DEMO_PAPER},1,${chain(throughChain)}\n`);
    expect((await attempt(throughChain)).details).toEqual([
      {
        path: "manifest.csv:2:path",
        message: expect.stringMatching(
          new RegExp(`goes through the link "l${CHAIN}": links in an upload are not followed`),
        ),
      },
    ]);

    expect(await count(handle, "submissions")).toBe(before);
    expect(await storedWithSecret(canary.secret)).toBe(0);
    fs.rmSync(canary.dir, { recursive: true, force: true });
  });

  async function filled(name: string, runs: number[]): Promise<string> {
    const root = folder(`filled-${name}`);
    for (const run of runs)
      fs.cpSync(DEMO_SUBMISSION, path.join(root, DEMO_PAPER, String(run), "submission"), { recursive: true });
    return root;
  }

  it("PaperBench's own testutil runs (with grade.json) are refused and point at the ingest", async () => {
    const evaluation = await newEvaluation({ runs: 1 });
    const root = folder("graded-runs");
    await makePaperBenchRuns(root, [[1]]);
    const err = (await bulkUploadIntoEvaluation(handle, {
      evaluationId: evaluation.id,
      source: root,
      userId: staffId,
    }).catch((e: unknown) => e)) as AppError;
    expect(err.message).toMatch(/ingest them as a new evaluation/);
  });
});
