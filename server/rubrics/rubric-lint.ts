import "server-only";
import type { Store } from "@/db/client";
import { lintRubric, type LintFinding } from "@/lib/rubric/editor-lint";
import { splitDismissed, type LintDismissal } from "@/lib/rubric/lint-dismissals";
import { effectiveShares } from "@/lib/rubric/shares";
import { buildTreeIndex } from "@/lib/rubric/tree-index";
import { rowsToTree } from "@/lib/rubric/tree-rows";
import type { RubricNode } from "@/lib/rubric/types";
import { getLiveRubricRows } from "./read-rubric";

/** A finding as the paper page lists it: the node named by its requirement text (the page has no keys). */
export interface PaperLintFinding extends LintFinding {
  requirements: string;
}

export interface RubricLint {
  /** The findings left once the dismissals are applied: the count the editor shows too. */
  findings: PaperLintFinding[];
  /** How many findings the dismissals hide. */
  dismissedCount: number;
  dismissals: LintDismissal[];
}

// The paper page names a node by the start of its text: enough to find it in the editor.
const REQUIREMENTS_SHOWN = 160;

/**
 * The paper's live rubric as a tree with the editor's lint (`lib/rubric/editor-lint.ts`) less the
 * dismissed warnings (`lib/rubric/lint-dismissals.ts`): the same rules and the same count as the
 * editor's Problems tab.
 */
export async function getLiveRubricWithLint(store: Store, paperId: string): Promise<{ revision: number; tree: RubricNode | null; lint: RubricLint | null }> {
  const { revision, nodes, dismissals } = await getLiveRubricRows(store, paperId);
  const tree = rowsToTree(nodes);
  if (!tree) return { revision, tree: null, lint: null };
  const index = buildTreeIndex(nodes);
  const { active, dismissed } = splitDismissed(lintRubric(index, effectiveShares(index)), dismissals);
  return {
    revision,
    tree,
    lint: {
      findings: active.map((f) => ({ ...f, requirements: (index.byKey.get(f.key)?.requirements ?? "").slice(0, REQUIREMENTS_SHOWN) })),
      dismissedCount: dismissed.length,
      dismissals,
    },
  };
}
