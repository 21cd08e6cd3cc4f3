import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type DbHandle } from "@/db/client";
import { migrationsDigest } from "@/db/migrations-folder";
import { registerJobPlatform } from "@/server/job-platform";

export type TestDatabaseKind = "pglite" | "postgres";

/**
 * The databases integration tests run against: PGlite always, and the PostgreSQL server too when
 * DATABASE_URL is set (CI sets it, so both paths run there).
 */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/** A fresh, migrated database of its own: a new PGlite directory, or a new database on the server. */
export async function openTestDatabase(kind: TestDatabaseKind): Promise<DbHandle> {
  // The job kinds and their subscribers, as the studio registers them at start-up: a test's queue
  // runs with the real pipeline and live feed.
  registerJobPlatform();
  if (kind === "pglite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-studio-test-"));
    const handle = await openDatabase({ dataDir });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  return openTestPostgresDatabase();
}

/** A fresh, migrated PostgreSQL database of its own, with its URL (for a LISTEN connection of the live feed). */
export async function openTestPostgresDatabase(): Promise<DbHandle & { url: string }> {
  registerJobPlatform();
  const server = await createTestPostgresDatabase();
  const handle = await openDatabase({ databaseUrl: server.url });
  return {
    ...handle,
    url: server.url,
    close: async () => {
      await handle.close();
      await server.drop();
    },
  };
}

/** Runs one statement on a server's maintenance connection (the DATABASE_URL a test database was made from). */
async function onServer(serverUrl: string, statement: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(statement, params);
  } finally {
    await client.end();
  }
}

/**
 * Retries a statement that a database's own connections still block (55006: "being accessed by
 * other users"): a pool's end() resolves before its sockets have closed, and a forced statement at
 * that moment kills them mid-goodbye (an uncaught 57P01 in the test).
 */
async function whenConnectionsClosed(serverUrl: string, statement: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    try {
      await onServer(serverUrl, statement);
      return true;
    } catch (err) {
      if ((err as { code?: string }).code !== "55006") throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return false;
}

// Any constant: serialises the template's creation across the test processes of one run.
const TEMPLATE_LOCK_KEY = 724_019_332;
let template: Promise<string> | undefined;

/**
 * A migrated database every test database is a copy of (`CREATE DATABASE … TEMPLATE`): a copy
 * takes a fraction of applying every migration to each of the hundred databases a run opens. Its
 * name carries the migrations' digest, so a new migration makes a new one; it stays on the server
 * for the next run.
 */
function migratedTemplate(serverUrl: string): Promise<string> {
  template ??= (async () => {
    const name = `rs_template_${migrationsDigest()}`;
    const lock = new pg.Client({ connectionString: serverUrl });
    await lock.connect();
    try {
      await lock.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
      const found = await lock.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (found.rowCount) return name;
      const building = `${name}_building_${process.pid}`;
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await onServer(serverUrl, `CREATE DATABASE ${building}`);
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      const handle = await openDatabase({ databaseUrl: url.toString() });
      await handle.close();
      if (!(await whenConnectionsClosed(serverUrl, `ALTER DATABASE ${building} RENAME TO ${name}`)))
        throw new Error(`${building} kept its connections: could not make it the template`);
      return name;
    } finally {
      await lock.end();
    }
  })().catch((err) => {
    template = undefined;
    throw err;
  });
  return template;
}

/** A new database on the DATABASE_URL server, migrated (a copy of the template), for one test run; `drop` removes it. */
export async function createTestPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("DATABASE_URL is not set");
  const name = `rs_test_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  await onServer(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(serverUrl)}`);
  // Under vitest, a test database outlives no crash: commits need not wait for the WAL's flush (8 % of
  // the database suites' time on CI's disk; every answer and isolation rule stays as it is). The
  // benchmarks (no VITEST) keep the server's setting and measure what production does.
  if (process.env.VITEST) await onServer(serverUrl, `ALTER DATABASE ${name} SET synchronous_commit = off`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    if (!(await whenConnectionsClosed(serverUrl, `DROP DATABASE IF EXISTS ${name}`)))
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  return { url: url.toString(), drop };
}

/**
 * What a PostgreSQL restart does to one test database, without touching the server's other
 * databases (other tests run beside): new connections are refused and every open one is ended
 * ("terminating connection due to administrator command", as in a restart) until `bringBack()`.
 */
export async function takeTestDatabaseDown(databaseUrl: string): Promise<{ bringBack: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("DATABASE_URL is not set");
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^rs_test_\w+$/.test(name)) throw new Error(`${name} is not a test database`);
  await onServer(serverUrl, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  await onServer(serverUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
  return {
    bringBack: async () => {
      await onServer(serverUrl, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    },
  };
}
