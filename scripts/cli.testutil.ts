/**
 * What the CLI tests share: the CLI run as a child process (the same entry point as `npm run rubric`
 * and `npm run user`, bundled once: test/cli-process.ts), and a fresh database for it per suite.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { cliArgs } from "@/test/cli-process";
import { createTestPostgresDatabase } from "@/test/databases";

export const runCli = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  spawnSync(process.execPath, cliArgs("cli", ...args), {
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });

/**
 * The environment a CLI of this suite runs in: an empty embedded data directory, or a fresh
 * PostgreSQL database (dropped after the suite). Filled in by the suite's `beforeAll`.
 */
export function cliEnvironment(kind: "pglite" | "postgres", label: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  let dataDir: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rubric-studio-${label}-`));
    env.DATA_DIR = dataDir;
    if (kind === "postgres") {
      const server = await createTestPostgresDatabase();
      env.DATABASE_URL = server.url;
      dropDatabase = server.drop;
    } else {
      env.DATABASE_URL = "";
    }
  });
  afterAll(async () => {
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return env;
}
