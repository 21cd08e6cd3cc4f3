import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { MIGRATIONS_FOLDER, migrationsDigest } from "./migrations-folder";

/**
 * A fresh PGlite data directory costs an initdb and every migration: several seconds, paid by the
 * studio's first start and by each of the hundred databases the tests open. The build (and the test
 * setup) pays it once and keeps the resulting migrated cluster as a tarball; a new data directory is
 * then loaded from it, and the migrator finds nothing left to apply. It depends on the PGlite version
 * and on the migrations, which both name the file: a new migration makes a new template.
 */
function templatePath(): string {
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
    `pglite-${version}-migrated-${migrationsDigest()}.tar`,
  );
}

/** The template as PGlite's `loadDataDir` wants it, or undefined when none was prepared for these migrations. */
export function readPgliteTemplate(): Blob | undefined {
  try {
    return new Blob([fs.readFileSync(templatePath())]);
  } catch {
    return undefined;
  }
}

/** Creates the template if it is missing. Safe to run from several processes at once. */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = templatePath();
  if (fs.existsSync(file)) return file;
  const client = await PGlite.create();
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  const dump = await client.dumpDataDir("none");
  await client.close();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, file);
  return file;
}
