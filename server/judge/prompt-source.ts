import "server-only";
import fs from "node:fs";
import path from "node:path";
import packageJson from "@/package.json";
import type { JudgeMode } from "@/lib/judge/config";
import { promptSourceLabel } from "@/lib/grading/provenance";

/**
 * Where a judge run's prompts come from, recorded on its grading: paperbench mode reads
 * PaperBench's own prompts from `PAPERBENCH_SRC_DIR` (the commit in its `COMMIT` file), efficient
 * mode uses the studio's wording (the studio's version).
 *
 * The commit is read here from `<PAPERBENCH_SRC_DIR>/COMMIT` until pb-primitives'
 * `loadPaperbenchPrompts()` (server/judge/paperbench-prompts.ts) lands; then this asks it instead,
 * so the recorded commit is the one the prompts were read from.
 */

/** The studio's version (package.json), as efficient mode's prompt source names it. */
export const STUDIO_VERSION: string = packageJson.version;

/** PaperBench's source folder: `PAPERBENCH_SRC_DIR`, else `../shared/paperbench-src` beside the project. */
export function paperbenchSrcDir(env: Record<string, string | undefined> = process.env): string {
  const configured = env.PAPERBENCH_SRC_DIR?.trim();
  return path.resolve(/*turbopackIgnore: true*/ configured || path.join(process.cwd(), "..", "shared", "paperbench-src"));
}

/** The PaperBench commit its source folder says it is at; null when the file is missing or unreadable. */
export function readPaperbenchCommit(srcDir = paperbenchSrcDir()): string | null {
  try {
    const commit = fs.readFileSync(path.join(srcDir, "COMMIT"), "utf8").trim();
    return /^[0-9a-f]{7,64}$/i.test(commit) ? commit : null;
  } catch {
    return null;
  }
}

/** "PaperBench <commit>" for paperbench mode, "studio <version>" for efficient mode. */
export function judgePromptSource(mode: JudgeMode, srcDir?: string): string {
  return promptSourceLabel(mode, mode === "paperbench" ? readPaperbenchCommit(srcDir) : null, STUDIO_VERSION);
}
