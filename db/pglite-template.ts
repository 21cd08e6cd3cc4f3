import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { MIGRATIONS_FOLDER, migrationsDigest } from "./migrations-folder";

/**
 * A fresh PGlite data directory costs an initdb and every migration: several seconds, paid by the
 * studio's first start and by each of the hundred databases the tests open. The build (and the test
 * setup) pays it once and keeps the migrated cluster as a data directory; a new data directory is a
 * copy of it (a plain file copy: loading a dump through PGlite unpacks 40 MB in WebAssembly, three
 * times slower), and the migrator finds nothing left to apply. It depends on the PGlite version and
 * on the migrations, which both name the directory: a new migration makes a new template.
 */
function templateDir(): string {
  const pkg = path.join(
    /*turbopackIgnore: true*/ process.cwd(),
    "node_modules",
    "@electric-sql",
    "pglite",
    "package.json",
  );
  const version = (JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string }).version;
  return path.join(
    /*turbopackIgnore: true*/ process.cwd(),
    "node_modules",
    ".cache",
    "rubric-studio",
    `pglite-${version}-migrated-${migrationsDigest()}`,
  );
}

/** Fills the empty `pgDir` from the template; leaves it empty (PGlite runs initdb) when none was prepared for these migrations. */
export function copyPgliteTemplate(pgDir: string): void {
  const template = templateDir();
  if (fs.existsSync(path.join(template, "PG_VERSION"))) fs.cpSync(template, pgDir, { recursive: true });
}

/** Creates the template if it is missing. Safe to run from several processes at once. */
export async function ensurePgliteTemplate(): Promise<string> {
  const dir = templateDir();
  if (fs.existsSync(path.join(dir, "PG_VERSION"))) return dir;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const partial = `${dir}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  const client = await PGlite.create(partial);
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  await client.close();
  try {
    fs.renameSync(partial, dir);
  } catch (err) {
    // Another process finished first: its template is the same.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, "PG_VERSION"))) throw err;
  }
  return dir;
}
