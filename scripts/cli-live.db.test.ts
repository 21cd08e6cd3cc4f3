import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "@/db/client";
import { followRubric, stopRubricFeed, type LiveSignal } from "@/server/live/rubric-feed";
import { cliArgs } from "@/test/cli-process";
import { createTestPostgresDatabase } from "@/test/databases";
import { DEMO_DIR, seedDemoRubric } from "@/test/seed-demo-rubric";

// Editors on other studio instances hear of changes through PostgreSQL's NOTIFY, so this runs on
// PostgreSQL only: skipped without DATABASE_URL locally, and failing (not skipped) in CI.
const skip = !process.env.DATABASE_URL && process.env.CI !== "true";

/** `npm run rubric -- …` as a separate process (another machine, for the studio), on `databaseUrl`. */
function runCli(
  databaseUrl: string,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs("cli", ...args), {
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe.skipIf(skip)("a CLI rubric import on PostgreSQL", () => {
  const paperId = "cli-live";
  let server: { url: string; drop: () => Promise<void> };
  let handle: DbHandle;

  beforeAll(async () => {
    server = await createTestPostgresDatabase();
    handle = await openDatabase({ databaseUrl: server.url });
    await seedDemoRubric(handle, paperId); // revision 1, open in someone's editor
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
    await server?.drop();
  });

  it("reaches an editor following the rubric: the new revision is announced", async () => {
    const heard: LiveSignal[] = [];
    let notify: () => void = () => {};
    const revision2 = new Promise<void>((resolve) => (notify = resolve));
    const unfollow = await followRubric(
      paperId,
      (signal) => {
        heard.push(signal);
        if (signal.type === "revision" && signal.revision === 2) notify();
      },
      { databaseUrl: server.url },
    );
    try {
      const cli = await runCli(server.url, "rubric", "import", DEMO_DIR, "--paper", paperId);
      expect(cli.status, cli.stderr).toBe(0);
      expect(cli.stdout).toMatch(new RegExp(`replaced rubric of ${paperId} — 33 nodes, revision 2`));
      // Bounded by the test's timeout alone.
      await revision2;
      expect(heard).toContainEqual({ type: "revision", revision: 2 });
    } finally {
      unfollow();
    }
  });
});
