import "server-only";
import { AppError } from "@/lib/errors";
import type { JudgeConfigInput } from "@/lib/judge/config";
import type { PaperbenchPrompts } from "@/lib/judge/paperbench/prompts";
import { loadPaperbenchPrompts } from "./paperbench-prompts";

/** Whether a configuration grades with a model in paperbench mode (and so needs PaperBench's prompts). */
export function needsPaperbenchPrompts(config: Pick<JudgeConfigInput, "kind" | "mode">): boolean {
  return config.kind === "llm" && config.mode === "paperbench";
}

/**
 * PaperBench's prompts for a run or a configuration in paperbench mode, read now from its
 * constants.py; when they cannot be read, a 409 saying why (the path included): the mode is
 * unavailable until PAPERBENCH_SRC_DIR points at a PaperBench checkout.
 */
export async function requirePaperbenchPrompts(): Promise<PaperbenchPrompts> {
  try {
    return await loadPaperbenchPrompts();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new AppError("conflict", `Paperbench mode is unavailable: ${why}`, [
      { path: "mode", message: "needs PaperBench's prompts (PAPERBENCH_SRC_DIR)" },
    ]);
  }
}

/** Why paperbench mode is unavailable here, or null when its prompts load (the configuration page says it). */
export async function paperbenchModeProblem(srcDir?: string): Promise<string | null> {
  try {
    await loadPaperbenchPrompts(srcDir);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The `paperbench` part of a run's input for this configuration (undefined when it needs none). */
export async function paperbenchInputFor(
  config: Pick<JudgeConfigInput, "kind" | "mode">,
): Promise<{ prompts: PaperbenchPrompts } | undefined> {
  return needsPaperbenchPrompts(config) ? { prompts: await requirePaperbenchPrompts() } : undefined;
}
