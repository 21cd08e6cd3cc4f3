/**
 * Migration 0021's backfill, run again over rows written as before it (no provenance, not marked):
 * a placeholder is known from its run's configuration kind or an imported file's judge_type, and a
 * judge run's grading gets the configuration the run froze and its evaluation's policies.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { insertSyntheticGradings } from "@/db/leaderboard-fixture.testutil";
import { DEFAULT_POLICIES } from "@/lib/evaluations/default-policies";
import { createEvaluation } from "@/server/evaluations/create-evaluation";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { startJudgeRuns } from "@/server/judge/runs/start-judge-run";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { seedDemoSubmission } from "@/server/seed/seed-demo-submission";
import { DEMO_JUDGE_CONFIGS } from "@/server/seed/seed-judge-configs";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-provenance-backfill-"));
const PAPER = "provenance-backfill-paper";
const [DUMMY] = DEMO_JUDGE_CONFIGS;
const BACKFILL = fs
  .readFileSync(path.join(process.cwd(), "db", "migrations", "0021_grading_provenance.sql"), "utf8")
  .split("--> statement-breakpoint")
  .map((s) => s.trim())
  .filter((s) => /^(--[^\n]*\n)*UPDATE/.test(s));

describe.each(testDatabaseKinds())("migration 0021's backfill on %s", (kind) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await seedDemoRubric(handle, PAPER);
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  it("marks placeholders and reconstructs what was kept", async () => {
    const { submissionId } = await seedDemoSubmission(handle, PAPER);
    const dummy = await createJudgeConfig(handle, DUMMY, null);
    const evaluation = await createEvaluation(
      handle,
      { name: "E", agent: "Backfilled", split: "custom", paperIds: [PAPER], runs: 1, judgeConfigId: dummy.id },
      null,
    );
    await handle.db.execute(sql`UPDATE submissions SET evaluation_id = ${evaluation.id} WHERE id = ${submissionId}`);
    const [run] = await startJudgeRuns(
      handle,
      { submissionIds: [submissionId], configId: dummy.id, variant: "code-dev", maxDepth: 2 },
      null,
    );
    const [importedRandom, importedModel] = await insertSyntheticGradings(handle.db, [
      { agent: "Imported", paper: "q", run: 1, score: 0.5, judge: { kind: "random" } },
      { agent: "Imported", paper: "q", run: 2, score: 0.5 },
    ]);
    // As before the migration: nothing recorded, nothing marked.
    await handle.db.execute(sql`UPDATE gradings SET provenance = NULL, judge_placeholder = false`);
    expect(BACKFILL).toHaveLength(3);
    for (const statement of BACKFILL) await handle.db.execute(sql.raw(statement));

    const read = async (id: string) =>
      (
        await handle.db.execute<{ provenance: Record<string, unknown>; judge_placeholder: boolean }>(
          sql`SELECT provenance, judge_placeholder FROM gradings WHERE id = ${id}`,
        )
      ).rows[0];
    const judged = await read(run.gradingId);
    expect(judged.judge_placeholder).toBe(true);
    expect(judged.provenance).toEqual({
      origin: "backfill",
      judgeKind: "dummy",
      judgeModel: "dummy",
      mode: "efficient",
      config: {
        id: dummy.id,
        name: DUMMY.name,
        model: "dummy",
        mode: "efficient",
        reasoningEffort: null,
        contextWindow: DUMMY.contextWindow,
        parseModel: null,
        maxDepth: 2,
      },
      promptSource: null,
      evaluationId: evaluation.id,
      policies: DEFAULT_POLICIES,
    });
    const random = await read(importedRandom);
    expect(random.judge_placeholder).toBe(true);
    expect(random.provenance).toMatchObject({ origin: "seed", judgeKind: "random", mode: null, config: null });
    const model = await read(importedModel);
    expect(model.judge_placeholder).toBe(false);
    expect(model.provenance).toMatchObject({ origin: "seed", judgeKind: null, judgeModel: "synthetic-judge" });
  });
});
