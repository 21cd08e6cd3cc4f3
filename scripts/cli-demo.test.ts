import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { hasDemoRows } from "@/db/queries/demo";
import { countUsers } from "@/db/queries/users";
import { seedDemo } from "@/server/seed/seed";
import { cliEnvironment, runCli } from "./cli.testutil";

describe("demo CLI", () => {
  const env = cliEnvironment("pglite", "cli-demo");

  it("deletes the seeded demo, then says there is none left", async () => {
    const seeded = await openDatabase({ dataDir: env.DATA_DIR });
    await seedDemo(seeded.db);
    await seeded.close();

    const deleted = runCli(env, "demo", "delete");
    expect(deleted.stderr).toBe("");
    expect(deleted.stdout).toBe("deleted the demo: 3 user(s), 1 paper(s), 4 agent(s)\n");
    expect(deleted.status).toBe(0);
    const again = runCli(env, "demo", "delete");
    expect(again.stdout).toBe("there is no demo data to delete\n");

    const after = await openDatabase({ dataDir: env.DATA_DIR });
    try {
      expect(await hasDemoRows(after.db)).toBe(false);
      expect(await countUsers(after.db)).toBe(0);
    } finally {
      await after.close();
    }
    // Two CLI starts (tsx, PGlite) and a seed: slow on a busy machine.
  }, 240_000);
});
