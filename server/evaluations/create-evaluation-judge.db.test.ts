import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { O3_MINI_CONFIG } from "@/lib/judge/config";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { DEMO_JUDGE_CONFIGS } from "@/server/seed/seed-judge-configs";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { createEvaluation } from "./create-evaluation";

const [DUMMY] = DEMO_JUDGE_CONFIGS;
const input = (name: string) => ({ name, agent: "Agent", split: "custom", paperIds: ["p"], runs: 1 });

/** An evaluation created without naming a judge gets the dialog's preselection (`chooseDefaultJudge`), not simply the default. */
describe.each(testDatabaseKinds())("the judge of a new evaluation on %s", (kind) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("falls back to a placeholder only when no model judge is configured, and prefers paperbench mode over a default Dummy", async () => {
    const dummy = await createJudgeConfig(handle, { ...DUMMY, isDefault: true }, null);
    expect((await createEvaluation(handle, input("only dummy"), null)).judgeConfigId).toBe(dummy.id);
    // A model judge whose key is not set is not configured yet.
    await createJudgeConfig(
      handle,
      { ...O3_MINI_CONFIG, name: "unset key", mode: "paperbench", apiKeyEnv: "JUDGE_KEY_RS_TEST_UNSET" },
      null,
    );
    expect((await createEvaluation(handle, input("key unset"), null)).judgeConfigId).toBe(dummy.id);
    const efficient = await createJudgeConfig(handle, { ...O3_MINI_CONFIG, name: "efficient", apiKeyEnv: null }, null);
    expect((await createEvaluation(handle, input("efficient"), null)).judgeConfigId).toBe(efficient.id);
    const paperbench = await createJudgeConfig(
      handle,
      { ...O3_MINI_CONFIG, name: "paperbench", mode: "paperbench", apiKeyEnv: null },
      null,
    );
    expect((await createEvaluation(handle, input("paperbench"), null)).judgeConfigId).toBe(paperbench.id);
    // Named explicitly, the choice stands.
    expect((await createEvaluation(handle, { ...input("named"), judgeConfigId: dummy.id }, null)).judgeConfigId).toBe(
      dummy.id,
    );
  });
});
