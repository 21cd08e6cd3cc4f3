import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { acquireDataDirLock } from "./data-dir-lock";
import { MIGRATIONS_FOLDER } from "./migrations-folder";
import { copyPgliteTemplate } from "./pglite-template";
import { prepareStatements } from "./pglite-statements";
import { readServerEnv } from "@/lib/env";
import * as schema from "./schema";

/**
 * One drizzle API for both modes. PGlite's drizzle database has the same query surface as
 * node-postgres' (both return `{ rows }` from `execute`), so the rest of the code sees one type.
 */
export type Database = NodePgDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Transaction;

/**
 * What a service needs of the database: the drizzle handle and which kind it is (live
 * announcements also go out as NOTIFY on PostgreSQL). Routes, pages and the CLI pass it on.
 */
export interface Store {
  db: Database;
  kind: "pglite" | "postgres";
}

export interface DbHandle extends Store {
  /** Where the data is, for messages: a data directory or the server's host/database. */
  location: string;
  close(): Promise<void>;
}

// Any constant: serialises migrations when several studio instances start against one server.
const MIGRATION_LOCK_KEY = 724_019_331;

export function defaultDataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ readServerEnv().DATA_DIR ?? path.join(process.cwd(), ".data"));
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string } = {}): Promise<DbHandle> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.dataDir ?? defaultDataDir());
}

async function openPostgres(databaseUrl: string): Promise<DbHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle client's error (the server restarted, an administrator ended the connection) is an
  // uncaught exception without this listener. The pool drops that client and opens a new one; while
  // the database is down the next query fails and says so, and /api/health reports it.
  pool.on("error", () => undefined);
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  } finally {
    client.release();
  }
  const url = new URL(databaseUrl);
  return {
    db: drizzlePg(pool, { schema }),
    kind: "postgres",
    location: `${url.hostname}:${url.port || 5432}${url.pathname}`,
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string): Promise<DbHandle> {
  const release = acquireDataDirLock(dataDir);
  try {
    const pgDir = path.join(dataDir, "pglite");
    fs.mkdirSync(pgDir, { recursive: true });
    // A new directory starts as a copy of the migrated template when one was prepared (the build does).
    if (!fs.existsSync(path.join(pgDir, "PG_VERSION"))) copyPgliteTemplate(pgDir);
    const client = await PGlite.create(pgDir);
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    // After the migrations: their statements run once, and the tables they change are then settled.
    prepareStatements(client);
    return {
      db: db as unknown as Database,
      kind: "pglite",
      location: pgDir,
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

// One handle per process, kept on globalThis so that Next.js module reloads never open PGlite twice.
const globalForDb = globalThis as unknown as { __rubricStudioDb?: Promise<DbHandle> };

/** The process-wide database from the environment (DATABASE_URL, else the embedded DATA_DIR). */
export function getDb(): Promise<DbHandle> {
  globalForDb.__rubricStudioDb ??= openDatabase({ databaseUrl: readServerEnv().DATABASE_URL }).catch((err) => {
    globalForDb.__rubricStudioDb = undefined;
    throw err;
  });
  return globalForDb.__rubricStudioDb;
}
