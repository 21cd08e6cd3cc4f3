/**
 * Judge configurations and starting runs on both databases: names are unique, one default, an
 * archived configuration starts nothing; an estimate writes nothing; a full-variant run needs a
 * reproduction that ran (any exit code); a started run pins the live rubric like an import and queues a judge job.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getGradingById } from "@/db/queries/gradings";
import { getJobById } from "@/db/queries/jobs";
import { AppError } from "@/lib/errors";
import { archiveJudgeConfig, setDefaultJudgeConfig } from "@/server/judge/configs/archive-judge-config";
import { listJudgeConfigs } from "@/server/judge/configs/list-judge-configs";
import { createJudgeConfig, updateJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { seedDemoSubmission } from "@/server/seed/seed-demo-submission";
import { DEMO_JUDGE_CONFIGS } from "@/server/seed/seed-judge-configs";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { getPaperById, updatePaper } from "@/db/queries/papers";
import { estimateJudgeRuns } from "./estimate-judge-runs";
import { listSubmissionJudgeRuns } from "./read-judge-run";
import { STUDIO_VERSION } from "../prompt-source";
import { startJudgeRuns } from "./start-judge-run";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-judge-start-"));
const PAPER = "judge-start-paper";
const [DUMMY, RANDOM, O3] = DEMO_JUDGE_CONFIGS;

async function refused(p: Promise<unknown>, code: string): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

describe.each(testDatabaseKinds())("judge configurations and runs on %s", (kind) => {
  let handle: DbHandle;
  let submissionId: string;
  const count = async (table: string) =>
    Number((await handle.db.execute<{ n: number }>(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))).rows[0].n);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await seedDemoRubric(handle, PAPER);
    ({ submissionId } = await seedDemoSubmission(handle, PAPER));
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  it("keeps names unique and one default; archives; never tells a key, only whether its variable is set", async () => {
    const dummy = await createJudgeConfig(handle, { ...DUMMY, isDefault: true }, null);
    const random = await createJudgeConfig(handle, RANDOM, null);
    await refused(createJudgeConfig(handle, DUMMY, null), "conflict");
    await refused(updateJudgeConfig(handle, random.id, { name: DUMMY.name }), "conflict");
    await setDefaultJudgeConfig(handle, random.id);
    const o3 = await createJudgeConfig(handle, { ...O3, apiKeyEnv: "JUDGE_KEY_RS_TEST_UNSET" }, null);
    let listed = await listJudgeConfigs(handle);
    expect(listed.filter((c) => c.isDefault).map((c) => c.id)).toEqual([random.id]);
    expect(listed.find((c) => c.id === o3.id)).toMatchObject({ apiKeySet: false, ready: false });
    expect(listed.find((c) => c.id === dummy.id)).toMatchObject({ apiKeySet: null, ready: true });
    expect(JSON.stringify(listed)).not.toContain("sk-");
    await archiveJudgeConfig(handle, random.id);
    listed = await listJudgeConfigs(handle);
    expect(listed.map((c) => c.id)).not.toContain(random.id);
    expect((await listJudgeConfigs(handle, { includeArchived: true })).find((c) => c.id === random.id)).toMatchObject({
      archived: true,
      isDefault: false,
    });
    await refused(
      startJudgeRuns(handle, { submissionIds: [submissionId], configId: random.id, variant: "code-dev" }, null),
      "conflict",
    );
    // An llm whose key variable is unset starts nothing (the estimate still answers).
    await refused(
      startJudgeRuns(handle, { submissionIds: [submissionId], configId: o3.id, variant: "code-dev" }, null),
      "conflict",
    );
  });

  it("estimates without writing; refuses the full variant before a reproduction; starts a run that pins the live rubric and queues a judge job", async () => {
    const [dummy] = (await listJudgeConfigs(handle)).filter((c) => c.name === DUMMY.name);
    const before = {
      gradings: await count("gradings"),
      versions: await count("rubric_versions"),
      jobs: await count("jobs"),
    };
    const estimate = await estimateJudgeRuns(handle, {
      submissionIds: [submissionId],
      configId: dummy.id,
      variant: "code-dev",
    });
    expect(estimate.runs).toHaveLength(1);
    expect(estimate.total.leaves).toBeGreaterThan(0);
    // The dummy judge calls no model: nothing to pay, no tokens, no time.
    expect(estimate.total).toMatchObject({ calls: 0, inputTokens: 0, costUsd: 0, durationS: 0 });
    // The demo paper has its text; without one, the estimate names the paper (the dialog warns that a model judge grades without it).
    expect(estimate.papersWithoutText).toEqual([]);
    const text = (await getPaperById(handle.db, PAPER))!.paperMarkdown;
    await updatePaper(handle.db, PAPER, { paperMarkdown: " \n" });
    expect(
      (await estimateJudgeRuns(handle, { submissionIds: [submissionId], configId: dummy.id, variant: "code-dev" }))
        .papersWithoutText,
    ).toEqual([{ id: PAPER, title: (await getPaperById(handle.db, PAPER))!.title }]);
    await updatePaper(handle.db, PAPER, { paperMarkdown: text });
    expect({
      gradings: await count("gradings"),
      versions: await count("rubric_versions"),
      jobs: await count("jobs"),
    }).toEqual(before);
    const full = await refused(
      estimateJudgeRuns(handle, { submissionIds: [submissionId], configId: dummy.id, variant: "full" }),
      "conflict",
    );
    expect(full.message).toContain("reproduce");

    const [run] = await startJudgeRuns(
      handle,
      { submissionIds: [submissionId], configId: dummy.id, variant: "code-dev", maxDepth: 1 },
      null,
    );
    expect(run).toMatchObject({ status: "queued", leavesDone: 0, maxDepth: 1, kind: "dummy" });
    const grading = await getGradingById(handle.db, run.gradingId);
    expect(grading).toMatchObject({ kind: "judge", rubricView: "code-dev", score: 0, source: { format: "judge_run" } });
    // How it is made is recorded with it; a placeholder judge's grading is marked members-only.
    expect(grading?.judgePlaceholder).toBe(true);
    expect(grading?.provenance).toEqual({
      origin: "judge_run",
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
        maxDepth: 1,
      },
      promptSource: null,
      evaluationId: null,
      policies: null,
    });
    const job = await getJobById(handle.db, run.jobId!);
    expect(job).toMatchObject({ kind: "judge", gpusRequired: 0, payload: { judgeRunId: run.id } });
    // The submission page's card: the grading's score once the run is done; for a grader only on a
    // grading assigned to them that hides nothing (this one is not theirs).
    const cardScore = async (role: "staff" | "grader") =>
      (
        await listSubmissionJudgeRuns(
          handle,
          { id: submissionId, paperId: PAPER },
          { userId: "00000000-0000-4000-8000-00000000000a", role },
        )
      ).find((r) => r.id === run.id)!.score;
    expect(await cardScore("staff")).toBeNull();
    await handle.db.execute(sql`UPDATE jobs SET status = 'succeeded' WHERE id = ${run.jobId}`);
    await handle.db.execute(sql`UPDATE gradings SET score = 0.25 WHERE id = ${run.gradingId}`);
    expect(await cardScore("staff")).toBe(0.25);
    expect(await cardScore("grader")).toBeNull();
    // A second run of the same live rubric pins the same version.
    const [again] = await startJudgeRuns(
      handle,
      {
        paperId: PAPER,
        agentId: (
          await handle.db.execute<{ agent_id: string }>(
            sql`SELECT agent_id FROM submissions WHERE id = ${submissionId}`,
          )
        ).rows[0].agent_id,
        configId: dummy.id,
        variant: "code-dev",
      },
      null,
    );
    expect((await getGradingById(handle.db, again.gradingId))?.rubricVersionId).toBe(grading?.rubricVersionId);
    expect(await count("rubric_versions")).toBe(before.versions + 1);
  });

  it("records a model judge's mode and prompt source: PaperBench's commit in paperbench mode, the studio's version in efficient mode", async () => {
    const commit = fs
      .readFileSync(
        path.join(
          process.env.PAPERBENCH_SRC_DIR ?? path.join(process.cwd(), "..", "shared", "paperbench-src"),
          "COMMIT",
        ),
        "utf8",
      )
      .trim();
    for (const mode of ["paperbench", "efficient"] as const) {
      const config = await createJudgeConfig(handle, { ...O3, name: `o3 ${mode}`, mode, apiKeyEnv: null }, null);
      const [run] = await startJudgeRuns(
        handle,
        { submissionIds: [submissionId], configId: config.id, variant: "code-dev" },
        null,
      );
      const grading = await getGradingById(handle.db, run.gradingId);
      expect(grading?.judgePlaceholder).toBe(false);
      expect(grading?.provenance).toMatchObject({
        origin: "judge_run",
        judgeKind: "llm",
        judgeModel: O3.model,
        mode,
        config: {
          id: config.id,
          model: O3.model,
          mode,
          reasoningEffort: O3.reasoningEffort,
          contextWindow: O3.contextWindow,
          parseModel: O3.parseModel,
          maxDepth: null,
        },
        promptSource: mode === "paperbench" ? `PaperBench ${commit.slice(0, 12)}` : `studio ${STUDIO_VERSION}`,
      });
    }
  });
});
