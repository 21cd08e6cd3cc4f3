/**
 * The demo's judge configurations on both databases: with PaperBench's prompts readable, o3-mini
 * in paperbench mode is seeded (the default once OPENAI_API_KEY is set); without them (a fresh
 * clone with no PAPERBENCH_SRC_DIR) it is left out and the first start still seeds the rest.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { PAPERBENCH_SRC_DIR, skipWithoutPaperbenchPython } from "@/test/paperbench/python";
import { seedJudgeConfigs } from "./seed-judge-configs";

describe.each(testDatabaseKinds())("the demo's judge configurations on %s", (kind) => {
  let handle: DbHandle;
  beforeEach(async () => {
    handle = await openTestDatabase(kind);
  });
  afterEach(async () => {
    await handle?.close();
  });
  const seeded = async () =>
    (await handle.db.execute(sql`SELECT name, mode, is_default FROM judge_configs ORDER BY created_at, name`)).rows.map(
      (r) => [r.name, r.mode, r.is_default],
    );

  it.skipIf(skipWithoutPaperbenchPython)(
    "seeds o3-mini in paperbench mode when PaperBench's prompts load, the default with a key",
    async () => {
      await seedJudgeConfigs(handle.db, null, { PAPERBENCH_SRC_DIR, OPENAI_API_KEY: "sk-test" });
      const rows = await seeded();
      expect(rows).toHaveLength(4);
      expect(rows.filter((r) => r[2] === true)).toEqual([["o3-mini · PaperBench mode", "paperbench", true]]);
    },
  );

  it("leaves paperbench mode out when PaperBench's prompts are missing, and still seeds the rest", async () => {
    const missing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "no-paperbench-")), "paperbench-src");
    await seedJudgeConfigs(handle.db, null, { PAPERBENCH_SRC_DIR: missing, OPENAI_API_KEY: "sk-test" });
    const rows = await seeded();
    expect(rows.map((r) => r[1])).not.toContain("paperbench");
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r[2] === true).map((r) => r[0])).toEqual(["o3-mini"]);
    await handle.db.execute(sql`DELETE FROM judge_configs`);
    await seedJudgeConfigs(handle.db, null, { PAPERBENCH_SRC_DIR: missing });
    expect((await seeded()).filter((r) => r[2] === true).map((r) => r[0])).toEqual(["Dummy judge"]);
  });
});
