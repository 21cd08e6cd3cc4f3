import type { RubricDiff } from "@/lib/rubric/diff";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import type { RubricStats, RubricWarning } from "@/lib/rubric/types";

/**
 * What an upload would do, computed without writing (`POST /api/import/preview`,
 * `POST /api/papers/<id>/rubric/preview`): the studio shows it and asks before replacing a rubric.
 */
export interface ImportPreview {
  paperId: string;
  createsPaper: boolean;
  /** The live rubric's revision (0: none): the `expectedRevision` a confirmation sends back. */
  revision: number;
  /** Whether the import replaces a rubric with nodes, so needs a confirmation. */
  replaces: boolean;
  /** Live rubric → uploaded rubric; null when there is nothing to replace. */
  diff: RubricDiff | null;
  /** The rows the diff names as parents of its lines (its own lines carry the rest), on each side. */
  parentRows: { before: NodeRow[]; after: NodeRow[] };
  /** The paper's fields the folder changes (title, blacklist, paper text, addenda). */
  paperFields: string[];
  stats: RubricStats;
  warnings: RubricWarning[];
  notes?: { path: string; reason: string }[];
}
