import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { uploadSubmission } from "@/server/submissions/upload-submission";
import { evaluationUpload } from "./evaluation-upload";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { createEvaluation } from "./create-evaluation";
import { DEMO_DIR, DEMO_PAPER } from "./paperbench-runs.testutil";
import { readEvaluationSummary } from "./read-evaluation";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-evaluation-run-"));

describe.each(testDatabaseKinds())("a harness's upload into an evaluation on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;
  let archive: string;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: staffId, source: "test" });
    archive = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rs-harness-")), "repo.tar.gz");
    fs.writeFileSync(archive, await makeTarGz([{ name: "reproduce.sh", data: "echo hi\n" }]));
  });
  afterAll(async () => {
    await handle?.close();
    fs.rmSync(path.dirname(archive), { recursive: true, force: true });
  });

  const upload = (evaluation: string, fields: { agent: string; run: number; variant?: "full" | "code-dev" }) =>
    uploadSubmission(
      handle,
      {
        agent: fields.agent,
        run: fields.run,
        variant: fields.variant ?? "full",
        reproduce: false,
        replace: false,
        paperId: DEMO_PAPER,
        userId: staffId,
        archive: { path: archive, name: "repo.tar.gz" },
      },
      evaluationUpload(evaluation),
    );

  it("one submission at a time with the evaluation's id joins it as a pending cell; a run that does not fit is refused naming the field, and nothing is stored", async () => {
    const evaluation = await createEvaluation(
      handle,
      { name: "harness", agent: "Harness agent", paperIds: [DEMO_PAPER], runs: 2 },
      staffId,
    );
    const { submissionId } = await upload(evaluation.id, { agent: "Harness agent", run: 2 });
    const summary = await readEvaluationSummary(handle, evaluation.id);
    expect(summary.cells).toMatchObject([{ submissionId, paperId: DEMO_PAPER, run: 2, state: "pending", score: null }]);
    // Run 1 was never uploaded: pending too, and neither counts.
    expect(summary.result.excluded.map((e) => [e.run, e.reason])).toEqual([
      [1, "excluded: not graded yet"],
      [2, "excluded: not graded yet"],
    ]);

    const count = async () =>
      Number(((await handle.db.execute(sql`SELECT count(*)::int AS n FROM submissions`)).rows[0] as { n: number }).n);
    const before = await count();
    // Each refusal is caught as it is made: they run at once, and one left unawaited while an
    // earlier one is awaited would reject with no handler yet.
    const refused = (p: Promise<unknown>) => p.catch((e: unknown) => e);
    const refusals: [Promise<unknown>, string, string][] = [
      [refused(upload(evaluation.id, { agent: "Someone else", run: 1 })), "bad_request", "agent"],
      [refused(upload(evaluation.id, { agent: "Harness agent", run: 3 })), "bad_request", "run"],
      [
        refused(upload(evaluation.id, { agent: "Harness agent", run: 1, variant: "code-dev" })),
        "bad_request",
        "variant",
      ],
      [refused(upload("00000000-0000-4000-8000-000000000000", { agent: "Harness agent", run: 1 })), "not_found", ""],
    ];
    for (const [promise, code, field] of refusals) {
      const err = (await promise) as AppError;
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe(code);
      if (field) expect(err.details[0]).toMatchObject({ path: field });
    }
    expect(await count()).toBe(before);
  });
});
