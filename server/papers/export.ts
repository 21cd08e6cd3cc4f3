import "server-only";
import type { Store } from "@/db/client";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { AppError } from "@/lib/errors";
import { resourcesProvidedTree } from "@/lib/grading/resources-provided";
import type { Variant } from "@/lib/grading/variant";
import { RUBRIC_LIMITS } from "@/lib/rubric/limits";
import { blockingExportWarnings, lintPaperBenchRules } from "@/lib/rubric/lint";
import { toCodeDevTree } from "@/lib/rubric/code-dev";
import { serializeRubric } from "@/lib/rubric/paperbench";
import { rubricStats } from "@/lib/rubric/walk";
import { getRubricTree } from "@/server/rubrics/read-rubric";

/**
 * The paper's rubric as PaperBench's rubric.json bytes. A rubric that still breaks a PaperBench
 * rule is refused (409, with the list) unless `force` is set: a draft must not leak into a run.
 * One past the import's limits (built before operations kept to them) is always refused: no file
 * is written that the studio would not read back, nor one of hundreds of megabytes.
 */
export async function exportRubricJson(
  store: Store,
  paperId: string,
  // `full` is the rubric as it is; `code-dev` is PaperBench's Code-Dev variant (Code Development leaves only).
  // `resourcesProvided`: PaperBench's setting, the "Dataset and Model Acquisition" leaves weighing 0.
  opts: { force?: boolean; variant?: Variant; resourcesProvided?: boolean } = {},
): Promise<string> {
  const rubric = await getRubricByPaperId(store.db, paperId);
  const full = rubric ? await getRubricTree(store.db, rubric.id) : null;
  if (!rubric || !full) throw new AppError("not_found", `The paper "${paperId}" has no rubric yet`);
  const tree = opts.variant === "code-dev" ? toCodeDevTree(full) : full;
  if (!tree)
    throw new AppError("not_found", "The rubric has no Code Development leaves, so its Code-Dev variant is empty");
  const stats = rubricStats(tree);
  if (stats.depth > RUBRIC_LIMITS.maxDepth || stats.nodes > RUBRIC_LIMITS.maxNodes) {
    const over =
      stats.depth > RUBRIC_LIMITS.maxDepth
        ? `${stats.depth} levels deep; the limit is ${RUBRIC_LIMITS.maxDepth}`
        : `${stats.nodes} nodes; the limit is ${RUBRIC_LIMITS.maxNodes}`;
    throw new AppError("export_blocked", `The rubric is ${over}: move or delete nodes to export it`, [
      { path: "(root)", message: `is ${over}` },
    ]);
  }
  if (!opts.force) {
    const blocking = blockingExportWarnings(lintPaperBenchRules(tree));
    if (blocking.length > 0) {
      throw new AppError(
        "export_blocked",
        `The rubric breaks ${blocking.length} PaperBench rule${blocking.length === 1 ? "" : "s"}; fix them or export with force`,
        blocking,
      );
    }
  }
  // After the rules are checked: the zero weights are the setting's, not a flaw of the rubric.
  return serializeRubric(opts.resourcesProvided ? resourcesProvidedTree(tree).tree : tree);
}
