import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { getPaperById, listPaperMembers } from "@/db/queries/papers";
import { countUsers, getUserByEmail } from "@/db/queries/users";
import { DEMO_USERS } from "./seed";
import { DEMO_AGENTS, DEMO_RUNS } from "./seed-gradings";
import { verifyPassword } from "@/server/auth/password";
import { exportRubricJson } from "@/server/papers/export";
import { listSubmissionFiles } from "@/db/queries/submissions";
import { listPaperSubmissions } from "@/server/submissions/list-submissions";
import { startStudio } from "@/server/startup";
import { stopQueueUpkeep } from "@/server/jobs/queue-upkeep";
import { createTestPostgresDatabase } from "@/test/databases";

const globalForDb = globalThis as unknown as { __rubricStudioDb?: ReturnType<typeof getDb> };
const savedEnv = {
  DATABASE_URL: process.env.DATABASE_URL,
  DATA_DIR: process.env.DATA_DIR,
  AUTH_SECRET: process.env.AUTH_SECRET,
  EMBEDDED_RUNNER: process.env.EMBEDDED_RUNNER,
};
// The start-up under test would start a runner beside the studio: not in a unit test.
process.env.EMBEDDED_RUNNER = "0";
// Nor the judge worker the embedded mode runs in-process.
process.env.WORKER_IN_PROCESS = "0";

afterEach(async () => {
  // The start-up's pass over the queue, stopped before its database closes.
  stopQueueUpkeep();
  await (await globalForDb.__rubricStudioDb)?.close();
  globalForDb.__rubricStudioDb = undefined;
  Object.assign(process.env, savedEnv);
  for (const [k, v] of Object.entries(savedEnv)) if (v === undefined) delete process.env[k];
  process.env.EMBEDDED_RUNNER = "0";
});

describe("studio start-up", () => {
  it("seeds the embedded mode with one demo user per role and prints how to sign in", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-studio-seed-"));
    process.env.DATA_DIR = dataDir;
    process.env.DATABASE_URL = "";
    delete process.env.AUTH_SECRET;
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await startStudio();
      const printed = log.mock.calls.flat().join("\n");
      for (const u of DEMO_USERS) expect(printed).toContain(`${u.email}  password: ${u.password}`);

      const { db } = await getDb();
      for (const u of DEMO_USERS) {
        const user = await getUserByEmail(db, u.email);
        expect(user?.isStaff).toBe(u.role === "staff");
        expect(await verifyPassword(user!.passwordHash!, u.password)).toBe(true);
      }
      const paper = await getPaperById(db, "demo-adaptive-clipping");
      expect(paper?.paperMarkdown).toContain("#");
      expect((await listPaperMembers(db, paper!.id)).map((m) => m.role).sort()).toEqual(["author", "grader"]);
      expect(await exportRubricJson(await getDb(), paper!.id)).toBe(
        fs.readFileSync("rubrics/demo/rubric.json", "utf8"),
      );
      // The demo submission is stored, ready to reproduce (not queued: the newcomer presses Reproduce),
      // and every graded demo run holds the same repository: each one offers Reproduce and Code-Dev judging.
      const submissions = await listPaperSubmissions(await getDb(), paper!.id);
      expect(submissions).toHaveLength(DEMO_AGENTS.length * DEMO_RUNS + 1);
      const demoSubmission = submissions.find(
        (x) => x.agentName === DEMO_AGENTS[0].name && x.runIndex === DEMO_RUNS + 1,
      );
      expect(demoSubmission).toMatchObject({ latestJobId: null });
      for (const s of submissions) {
        expect(s.archiveSha256, `${s.agentName} run ${s.runIndex}`).toBe(demoSubmission!.archiveSha256);
        expect((await listSubmissionFiles(db, s.id)).map((f) => f.path)).toEqual(
          expect.arrayContaining(["reproduce.sh", "wagc.py"]),
        );
      }
      expect(fs.existsSync(path.join(dataDir, "blobs"))).toBe(true);
      // The secret was generated into the data directory, never committed.
      expect(fs.readFileSync(path.join(dataDir, "auth-secret"), "utf8").length).toBeGreaterThan(30);

      // A second start seeds nothing more.
      await startStudio();
      expect(await countUsers(db)).toBe(DEMO_USERS.length);
    } finally {
      log.mockRestore();
      stopQueueUpkeep();
      await (await globalForDb.__rubricStudioDb)?.close();
      globalForDb.__rubricStudioDb = undefined;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(process.env.DATABASE_URL)("creates no demo users on PostgreSQL", async () => {
    const server = await createTestPostgresDatabase();
    const serverUrl = process.env.DATABASE_URL;
    process.env.DATABASE_URL = server.url;
    process.env.AUTH_SECRET = "test-secret";
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await startStudio();
      expect(log.mock.calls.flat().join("\n")).not.toContain("password");
      const { db } = await getDb();
      expect(await countUsers(db)).toBe(0);
    } finally {
      log.mockRestore();
      stopQueueUpkeep();
      await (await globalForDb.__rubricStudioDb)?.close();
      globalForDb.__rubricStudioDb = undefined;
      process.env.DATABASE_URL = serverUrl;
      await server.drop();
    }
  });
});
