import "server-only";
import type { Store } from "@/db/client";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { AppError } from "@/lib/errors";
import type { Variant } from "@/lib/grading/variant";
import { blockingExportWarnings, lintPaperBenchRules } from "@/lib/rubric/lint";
import { toCodeDevTree } from "@/lib/rubric/code-dev";
import { serializeRubric } from "@/lib/rubric/paperbench";
import { getRubricTree } from "@/server/rubrics/read-rubric";

/**
 * The paper's rubric as PaperBench's rubric.json bytes. A rubric that still breaks a PaperBench
 * rule is refused (409, with the list) unless `force` is set: a draft must not leak into a run.
 */
export async function exportRubricJson(
  store: Store,
  paperId: string,
  // `full` is the rubric as it is; `code-dev` is PaperBench's Code-Dev variant (Code Development leaves only).
  opts: { force?: boolean; variant?: Variant } = {},
): Promise<string> {
  const rubric = await getRubricByPaperId(store.db, paperId);
  const full = rubric ? await getRubricTree(store.db, rubric.id) : null;
  if (!rubric || !full) throw new AppError("not_found", `The paper "${paperId}" has no rubric yet`);
  const tree = opts.variant === "code-dev" ? toCodeDevTree(full) : full;
  if (!tree) throw new AppError("not_found", "The rubric has no Code Development leaves, so its Code-Dev variant is empty");
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
  return serializeRubric(tree);
}
