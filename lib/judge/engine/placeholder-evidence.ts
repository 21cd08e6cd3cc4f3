/**
 * Evidence for the judges without a model (dummy, random): each leaf cites the first lines of the
 * first file the engine would show it, so a demo grading has evidence links to follow. A model
 * judge cites what it read; these cite where the prompt starts, and say so.
 */
import type { Evidence, SubmissionFiles } from "../engine-contract";
import { candidateFiles, REPRODUCE_SH, type FileCategory } from "./file-selection";
import { listForSelection } from "./prepare-submission";
import type { PlannedLeaf } from "./rubric-plan";

/** At most this many lines are cited. */
export const PLACEHOLDER_LINES = 3;

function lineCount(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n");
  return lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
}

/**
 * The cited lines per leaf key (an empty list when no file a leaf could read has text). The prompt
 * shows reproduce.sh before the files in the full variant, and among them in Code-Dev.
 */
export async function placeholderEvidence(
  submission: SubmissionFiles,
  codeDev: boolean,
  leaves: readonly PlannedLeaf[],
): Promise<Map<string, Evidence[]>> {
  const { listed, ctx } = await listForSelection(submission, codeDev);
  const lines = new Map<string, number>();
  const linesOf = async (path: string) => {
    if (!lines.has(path)) {
      const text = await submission.read(path);
      lines.set(path, text === null ? 0 : lineCount(text));
    }
    return lines.get(path)!;
  };
  const byCategory = new Map<FileCategory, Evidence[]>();
  const citedFor = async (category: FileCategory): Promise<Evidence[]> => {
    if (byCategory.has(category)) return byCategory.get(category)!;
    const shown = candidateFiles(listed, category, ctx).map((f) => f.path);
    if (!codeDev && listed.some((f) => f.path === REPRODUCE_SH)) shown.unshift(REPRODUCE_SH);
    let cited: Evidence[] = [];
    for (const path of shown) {
      const count = await linesOf(path);
      if (count > 0) {
        cited = [{ path, start_line: 1, end_line: Math.min(PLACEHOLDER_LINES, count) }];
        break;
      }
    }
    byCategory.set(category, cited);
    return cited;
  };
  const out = new Map<string, Evidence[]>();
  for (const leaf of leaves) out.set(leaf.key, await citedFor(leaf.fileCategory));
  return out;
}
