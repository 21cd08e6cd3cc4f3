import "server-only";
import type { Executor, Store } from "@/db/client";
import type { Rubric } from "@/db/schema";
import { getNodeHistory, type NodeHistoryEntry } from "@/db/queries/rubric-history";
import { getRubricReview, type RubricReview } from "@/db/queries/rubric-review";
import { getRubricVersion, listRubricVersions, type RubricVersionItem } from "@/db/queries/rubric-versions";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { listLintDismissals } from "@/db/queries/lint-dismissals";
import { AppError } from "@/lib/errors";
import type { LintDismissal } from "@/lib/rubric/lint-dismissals";
import { rowsToTree, type NodeRow } from "@/lib/rubric/tree-rows";
import type { RubricNode } from "@/lib/rubric/types";
import { listDeletedSubtrees, type DeletedSubtree } from "./deleted-subtrees";
import { listRubricRevisions, type RevisionItem } from "./revision-log";
import { getRubricRowsAtRevision } from "./rubric-at-revision";

/** The paper's rubric, or a 404 saying it has none (`message`: how the caller says it). */
export async function requireRubric(db: Executor, paperId: string, message = "The paper has no rubric yet"): Promise<Rubric> {
  const rubric = await getRubricByPaperId(db, paperId);
  if (!rubric) throw new AppError("not_found", message);
  return rubric;
}

/** The live tree of a rubric, or null when it has no nodes. */
export async function getRubricTree(db: Executor, rubricId: string): Promise<RubricNode | null> {
  return rowsToTree(await getLiveNodeRows(db, rubricId));
}

/** The paper's live rubric as rows with their internal keys, and its lint dismissals: what the editor works on. */
export async function getLiveRubricRows(
  store: Store,
  paperId: string,
): Promise<{ rubricId: string | null; revision: number; nodes: NodeRow[]; dismissals: LintDismissal[] }> {
  const rubric = await getRubricByPaperId(store.db, paperId);
  if (!rubric) return { rubricId: null, revision: 0, nodes: [], dismissals: [] };
  return getRubricRows(store, rubric);
}

/** A rubric's live rows and lint dismissals, labelled with its revision as the caller read it. */
export async function getRubricRows(
  store: Store,
  rubric: Pick<Rubric, "id" | "revision">,
): Promise<{ rubricId: string; revision: number; nodes: NodeRow[]; dismissals: LintDismissal[] }> {
  return {
    rubricId: rubric.id,
    revision: rubric.revision,
    nodes: await getLiveNodeRows(store.db, rubric.id),
    dismissals: await listLintDismissals(store.db, rubric.id),
  };
}

/** The paper's rubric as of a revision (rebuilt from the log), beside its current revision. */
export async function getRubricRowsAt(store: Store, paperId: string, revision: number): Promise<{ revision: number; currentRevision: number; nodes: NodeRow[] }> {
  const rubric = await requireRubric(store.db, paperId, "The paper has no rubric");
  const nodes = await getRubricRowsAtRevision(store.db, rubric.id, revision);
  return { revision, currentRevision: rubric.revision, nodes };
}

/** The operation log, newest first, one line per revision. */
export async function listRevisions(
  store: Store,
  paperId: string,
  query: { before?: number; limit: number },
): Promise<{ currentRevision: number; revisions: RevisionItem[] }> {
  const rubric = await getRubricByPaperId(store.db, paperId);
  return { currentRevision: rubric?.revision ?? 0, revisions: rubric ? await listRubricRevisions(store.db, rubric.id, query) : [] };
}

/** Who changed a node, when and how, newest first. */
export async function getNodeHistoryOfPaper(store: Store, paperId: string, key: string): Promise<NodeHistoryEntry[]> {
  const rubric = await getRubricByPaperId(store.db, paperId);
  return rubric ? getNodeHistory(store.db, rubric.id, key) : [];
}

/** The deleted subtrees that can be restored, newest first. */
export async function listDeleted(store: Store, paperId: string): Promise<DeletedSubtree[]> {
  const rubric = await getRubricByPaperId(store.db, paperId);
  return rubric ? listDeletedSubtrees(store.db, rubric.id) : [];
}

export async function listVersions(store: Store, paperId: string): Promise<RubricVersionItem[]> {
  const rubric = await getRubricByPaperId(store.db, paperId);
  return rubric ? listRubricVersions(store.db, rubric.id) : [];
}

/** A saved version with its rows (and their keys), for diffs. */
export async function getVersion(store: Store, paperId: string, versionId: string): Promise<{ version: RubricVersionItem; nodes: NodeRow[] }> {
  const rubric = await requireRubric(store.db, paperId, "The paper has no rubric");
  const version = await getRubricVersion(store.db, rubric.id, versionId);
  if (!version) throw new AppError("not_found", "No such version of this rubric");
  return version;
}

/** The rubric's review status and its history. */
export async function getReview(store: Store, paperId: string): Promise<RubricReview> {
  const rubric = await requireRubric(store.db, paperId);
  return getRubricReview(store.db, rubric.id);
}
