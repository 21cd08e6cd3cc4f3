import "server-only";
import fs from "node:fs";
import path from "node:path";
import { parseSplitText } from "@/lib/grading/splits";

/**
 * PaperBench's splits as files (`splits/<name>.txt` in the data: one paper id a line), read from
 * the data rather than written into the code. The pure parts (`parseSplitText`, `resolveSplits`)
 * live in `lib/`.
 */

/**
 * Every split of a PaperBench data folder (`<dataDir>/splits/*.txt`), by name (the file name
 * without `.txt`), names in alphabetical order. A folder without `splits/` has none.
 */
export function readSplits(dataDir: string): Record<string, string[]> {
  const dir = path.join(dataDir, "splits");
  if (!fs.existsSync(dir)) return {};
  const splits: Record<string, string[]> = {};
  const files = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".txt"))
    .map((e) => e.name)
    .sort();
  for (const file of files)
    splits[file.slice(0, -".txt".length)] = parseSplitText(fs.readFileSync(path.join(dir, file), "utf8"));
  return splits;
}

/** The PaperBench data folder the studio reads splits from. */
export function paperBenchDataDir(env: Record<string, string | undefined> = process.env): string {
  const configured = env.PAPERBENCH_DATA_DIR?.trim();
  return path.resolve(/*turbopackIgnore: true*/ configured || path.join(process.cwd(), "..", "shared", "paperbench"));
}

const READ_EVERY_MS = 30_000;
const cache = new Map<string, { at: number; splits: Record<string, string[]> }>();

/** The data's splits (none when the folder or its `splits/` is missing), re-read at most every 30 s. */
export function readDataSplits(dataDir = paperBenchDataDir(), now = Date.now()): Record<string, string[]> {
  const hit = cache.get(dataDir);
  if (hit && now - hit.at < READ_EVERY_MS) return hit.splits;
  let splits: Record<string, string[]>;
  try {
    splits = readSplits(dataDir);
  } catch {
    splits = {};
  }
  cache.set(dataDir, { at: now, splits });
  return splits;
}
