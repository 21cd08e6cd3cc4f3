import "server-only";
import packageJson from "@/package.json";
import type { JudgeMode } from "@/lib/judge/config";
import { promptSourceLabel } from "@/lib/evaluations/provenance";
import { loadPaperbenchPrompts } from "./paperbench-prompts";

/**
 * Where a judge run's prompts come from, recorded on its grading: paperbench mode reads
 * PaperBench's own prompts from `PAPERBENCH_SRC_DIR` (`loadPaperbenchPrompts`, whose commit is the
 * source folder's `COMMIT`), efficient mode uses the studio's wording (the studio's version).
 */

/** The studio's version (package.json), as efficient mode's prompt source names it. */
export const STUDIO_VERSION: string = packageJson.version;

/** The PaperBench commit the prompts are read at; null when unknown or the prompts cannot be read (the run then fails saying why). */
export async function readPaperbenchCommit(srcDir?: string): Promise<string | null> {
  try {
    return (await loadPaperbenchPrompts(srcDir)).commit;
  } catch {
    return null;
  }
}

/** "PaperBench <commit>" for paperbench mode, "studio <version>" for efficient mode. */
export async function judgePromptSource(mode: JudgeMode, srcDir?: string): Promise<string> {
  return promptSourceLabel(mode, mode === "paperbench" ? await readPaperbenchCommit(srcDir) : null, STUDIO_VERSION);
}
