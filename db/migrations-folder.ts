import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** drizzle-kit's output: the SQL files and their journal, applied in order on every open. */
export const MIGRATIONS_FOLDER = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");

/** A digest of every migration (journal and SQL): a migrated template is valid for exactly this set. */
export function migrationsDigest(): string {
  const hash = crypto.createHash("sha256");
  const journal = path.join(MIGRATIONS_FOLDER, "meta", "_journal.json");
  hash.update(fs.readFileSync(journal));
  for (const name of fs
    .readdirSync(MIGRATIONS_FOLDER)
    .filter((n) => n.endsWith(".sql"))
    .sort()) {
    hash.update(name);
    hash.update(fs.readFileSync(path.join(MIGRATIONS_FOLDER, name)));
  }
  return hash.digest("hex").slice(0, 12);
}
