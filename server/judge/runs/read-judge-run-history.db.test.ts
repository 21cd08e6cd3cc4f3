/**
 * Judge runs over time on both databases: only finished runs, grouped by configuration (renamed:
 * its name now; deleted: the name it ran under), each run's cost, tokens, latency and
 * invalid-leaf rate, and the configuration's totals.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createJudgeConfig, updateJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { seedDemoSubmission } from "@/server/seed/seed-demo-submission";
import { DEMO_JUDGE_CONFIGS } from "@/server/seed/seed-judge-configs";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { readJudgeRunHistory } from "./read-judge-run-history";
import { startJudgeRuns } from "./start-judge-run";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-judge-history-"));
const PAPER = "judge-history-paper";
const [DUMMY, RANDOM] = DEMO_JUDGE_CONFIGS;

describe.each(testDatabaseKinds())("judge run history on %s", (kind) => {
  let handle: DbHandle;
  let submissionId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await seedDemoRubric(handle, PAPER);
    ({ submissionId } = await seedDemoSubmission(handle, PAPER));
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  /** A run of `configId`, finished with these totals (`startedS`/`finishedS`: seconds after a fixed start; no start: never started). */
  async function finishedRun(
    configId: string,
    t: {
      startedS: number | null;
      finishedS: number | null;
      cost: number;
      inTok: number;
      outTok: number;
      done: number;
      invalid: number;
    },
  ) {
    const [run] = await startJudgeRuns(handle, { submissionIds: [submissionId], configId, variant: "code-dev" }, null);
    const at = (s: number | null) => (s === null ? null : new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString());
    await handle.db.execute(sql`
      UPDATE judge_runs SET cost_usd = ${t.cost}, input_tokens = ${t.inTok}, output_tokens = ${t.outTok}, leaves_done = ${t.done},
        leaves_invalid = ${t.invalid}, started_at = ${at(t.startedS)}::timestamptz, finished_at = ${at(t.finishedS)}::timestamptz
      WHERE id = ${run.id}`);
    return run.id;
  }

  it("answers nothing before any run finishes", async () => {
    expect((await readJudgeRunHistory(handle)).configs).toEqual([]);
  });

  it("charts each finished run of a configuration, oldest first, with its totals; a renamed one under its name now, a deleted one under the name it ran under", async () => {
    const dummy = await createJudgeConfig(handle, DUMMY, null);
    const random = await createJudgeConfig(handle, RANDOM, null);
    const second = await finishedRun(dummy.id, {
      startedS: 100,
      finishedS: 160,
      cost: 0.5,
      inTok: 1000,
      outTok: 200,
      done: 20,
      invalid: 2,
    });
    const first = await finishedRun(dummy.id, {
      startedS: 0,
      finishedS: 30,
      cost: 0.25,
      inTok: 500,
      outTok: 100,
      done: 10,
      invalid: 0,
    });
    const cancelledQueued = await finishedRun(dummy.id, {
      startedS: null,
      finishedS: 200,
      cost: 0,
      inTok: 0,
      outTok: 0,
      done: 0,
      invalid: 0,
    });
    await finishedRun(dummy.id, { startedS: 300, finishedS: null, cost: 9, inTok: 9, outTok: 9, done: 9, invalid: 9 }); // still running
    const gone = await finishedRun(random.id, {
      startedS: 0,
      finishedS: 500,
      cost: 0,
      inTok: 0,
      outTok: 0,
      done: 21,
      invalid: 21,
    });
    await updateJudgeConfig(handle, dummy.id, { name: "Dummy, renamed" });
    await handle.db.execute(sql`DELETE FROM judge_configs WHERE id = ${random.id}`);

    const { configs } = await readJudgeRunHistory(handle);
    // The deleted configuration's run finished last: it comes first.
    expect(configs.map((c) => [c.configId, c.name, c.runs.map((r) => r.runId)])).toEqual([
      [null, RANDOM.name, [gone]],
      [dummy.id, "Dummy, renamed", [first, second, cancelledQueued]],
    ]);
    const [deleted, renamed] = configs;
    expect(deleted.key).toBe(`name:${RANDOM.name}`);
    expect(deleted.totals).toEqual({ runs: 1, costUsd: 0, tokens: 0, meanLatencyS: 500, invalidRate: 1 });
    expect(renamed.model).toBe(DUMMY.model);
    expect(renamed.runs).toEqual([
      {
        runId: first,
        finishedAt: "2026-01-01T00:00:30.000Z",
        costUsd: 0.25,
        tokens: 600,
        latencyS: 30,
        invalidRate: 0,
      },
      {
        runId: second,
        finishedAt: "2026-01-01T00:02:40.000Z",
        costUsd: 0.5,
        tokens: 1200,
        latencyS: 60,
        invalidRate: 0.1,
      },
      {
        runId: cancelledQueued,
        finishedAt: "2026-01-01T00:03:20.000Z",
        costUsd: 0,
        tokens: 0,
        latencyS: null,
        invalidRate: null,
      },
    ]);
    // Latency over the runs that started; the invalid rate over every graded leaf (2 of 30).
    expect(renamed.totals).toEqual({ runs: 3, costUsd: 0.75, tokens: 1800, meanLatencyS: 45, invalidRate: 2 / 30 });
  });
});
