import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

/**
 * A fresh PGlite data directory costs an initdb of several seconds. The build (and the test setup)
 * runs it once and keeps the resulting empty cluster as a tarball; a new data directory is then
 * loaded from it in about a second. It depends only on the PGlite version, which names the file.
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
    `pglite-${version}-initdb.tar`,
  );
}

/** The template as PGlite's `loadDataDir` wants it, or undefined when none was prepared. */
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
  const dump = await client.dumpDataDir("none");
  await client.close();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, file);
  return file;
}
