/**
 * A judge run survives the death of its worker (issue 13 item 6): the built studio on PGlite (its
 * worker runs in-process) grades the demo submission through the real `openai` client against the
 * local test server; the studio is killed with SIGKILL mid-run and started again on the same data;
 * the run resumes and finishes, asking the model again only for the leaves that were in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JudgeRunView } from "@/lib/judge/views";
import { startOpenAiTestServer, type OpenAiTestServer } from "@/test/openai-test-server";
import {
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
import { startDemoJudgeRun } from "./runner-harness";

const CONCURRENCY = 2;
const LEASE_S = 3;

describe("a judge run whose studio is killed mid-run", () => {
  let db: PreparedDatabase;
  let studio: Studio | null = null;
  let model: OpenAiTestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    model = await startOpenAiTestServer({ latencyMs: 800 });
    db = await prepareDatabase("pglite", 0, "judge-resume");
    // The configuration names the key's variable; only the studio's worker has it.
    env = { ...db.env, JOB_LEASE_S: String(LEASE_S), JOB_HEARTBEAT_S: "1", JUDGE_KEY_TEST: "test-key" };
    studio = await startStudio(env);
  });
  afterAll(async () => {
    await studio?.stop();
    await model?.close();
    await db?.drop();
  });

  it("resumes after a restart with only the missing leaves, and finishes once", async () => {
    const staff = await signIn(studio!.url, STAFF.email, STAFF.password);
    const runId = await startDemoJudgeRun(studio!.url, staff, {
      agent: "Resume agent",
      configName: "Test server judge",
      model: model.baseUrl,
      apiKeyEnv: "JUDGE_KEY_TEST",
      maxConcurrency: CONCURRENCY,
    });
    const readRun = async (cookie: string) =>
      (await api<{ run: JudgeRunView }>(studio!.url, cookie, "GET", `/api/judge/runs/${runId}`)).body.run;

    // Some verdicts are stored, the rest not yet: kill the studio (and with it the worker) outright.
    const before = await waitFor("a few verdicts stored", async () => {
      const run = await readRun(staff);
      return run.leavesDone >= 3 && run.leavesDone < run.leavesTotal - CONCURRENCY ? run : undefined;
    });
    await killStudio(studio!);
    const askedBeforeKill = model.requests.length;
    // What the dead worker had stored, it never asks again; at most the calls in flight are asked twice.
    studio = await startStudio(env, { port: studio!.port });
    const again = await signIn(studio.url, STAFF.email, STAFF.password);
    const done = await waitFor("the run finished after the restart", async () => {
      const run = await readRun(again);
      return run.status === "succeeded" || run.status === "failed" ? run : undefined;
    });
    expect(done.status, done.failureReason ?? "").toBe("succeeded");
    expect(done.leavesDone).toBe(done.leavesTotal);
    expect(done.leavesInvalid).toBe(0);
    const askedAfter = model.requests.length - askedBeforeKill;
    expect(askedBeforeKill).toBeGreaterThanOrEqual(before.leavesDone);
    // Every leaf graded once, plus no more than the calls cut off in flight.
    expect(model.requests.length).toBeGreaterThanOrEqual(done.leavesTotal);
    expect(model.requests.length).toBeLessThanOrEqual(done.leavesTotal + CONCURRENCY);
    expect(askedAfter).toBeLessThanOrEqual(done.leavesTotal - before.leavesDone);
  });
});
