import "server-only";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import type { Executor } from "../client";
import { rubricNodes, rubricOperations, rubrics, type Rubric } from "../schema";

export async function getRubricByPaperId(db: Executor, paperId: string): Promise<Rubric | null> {
  const [rubric] = await db.select().from(rubrics).where(eq(rubrics.paperId, paperId)).limit(1);
  return rubric ?? null;
}

/** The rubric row, locked for the rest of the transaction (`update`: writers take turns; `share`: a consistent read). */
export async function lockRubricById(tx: Executor, rubricId: string, mode: "update" | "share"): Promise<Rubric> {
  const [rubric] = await tx.select().from(rubrics).where(eq(rubrics.id, rubricId)).for(mode);
  return rubric;
}

/** The paper's rubric row, created empty when it has none, locked for update. */
export async function lockOrCreateRubric(tx: Executor, paperId: string): Promise<Rubric> {
  await tx.insert(rubrics).values({ paperId }).onConflictDoNothing({ target: rubrics.paperId });
  const [rubric] = await tx.select().from(rubrics).where(eq(rubrics.paperId, paperId)).for("update");
  return rubric;
}

export async function setRubricRevision(tx: Executor, rubricId: string, revision: number): Promise<void> {
  await tx.update(rubrics).set({ revision, updatedAt: new Date() }).where(eq(rubrics.id, rubricId));
}

export const nodeRowColumns = {
  key: rubricNodes.key,
  parentKey: rubricNodes.parentKey,
  position: rubricNodes.position,
  nodeId: rubricNodes.nodeId,
  requirements: rubricNodes.requirements,
  weight: rubricNodes.weight,
  taskCategory: rubricNodes.taskCategory,
  finegrainedTaskCategory: rubricNodes.finegrainedTaskCategory,
};

/** The live rows of a rubric (deleted subtrees left out), in no particular order. */
export async function getLiveNodeRows(db: Executor, rubricId: string): Promise<NodeRow[]> {
  return db
    .select(nodeRowColumns)
    .from(rubricNodes)
    .where(and(eq(rubricNodes.rubricId, rubricId), isNull(rubricNodes.deletedRevision)));
}

/** The keys of a rubric's deleted rows. */
export async function getDeletedNodeKeys(db: Executor, rubricId: string): Promise<Set<string>> {
  const rows = await db
    .select({ key: rubricNodes.key })
    .from(rubricNodes)
    .where(and(eq(rubricNodes.rubricId, rubricId), isNotNull(rubricNodes.deletedRevision)));
  return new Set(rows.map((r) => r.key));
}

/** How many rows (live or deleted) a rubric has. */
export async function countNodeRows(db: Executor, rubricId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(rubricNodes)
    .where(eq(rubricNodes.rubricId, rubricId));
  return Number(n);
}

export async function deleteNodeRows(tx: Executor, rubricId: string): Promise<void> {
  await tx.delete(rubricNodes).where(eq(rubricNodes.rubricId, rubricId));
}

/**
 * Inserts rows in one statement: the rows travel as one JSON parameter and are expanded by
 * jsonb_to_recordset, which is far faster than thousands of bound parameters on both PGlite and pg.
 */
export async function insertNodeRows(tx: Executor, rubricId: string, rows: readonly NodeRow[]): Promise<void> {
  const payload = JSON.stringify(
    rows.map((r) => ({
      key: r.key,
      parent_key: r.parentKey,
      position: r.position,
      node_id: r.nodeId,
      requirements: r.requirements,
      weight: r.weight,
      task_category: r.taskCategory,
      finegrained_task_category: r.finegrainedTaskCategory,
    })),
  );
  await tx.execute(sql`
    INSERT INTO rubric_nodes
      (key, rubric_id, parent_key, position, node_id, requirements, weight, task_category, finegrained_task_category)
    SELECT x.key, ${rubricId}::uuid, x.parent_key, x.position, x.node_id, x.requirements, x.weight,
           x.task_category, x.finegrained_task_category
    FROM jsonb_to_recordset(${payload}::jsonb) AS x(
      key uuid, parent_key uuid, position text, node_id text, requirements text, weight float8,
      task_category text, finegrained_task_category text)
  `);
}

/** Logs one applied operation (or import) at its revision. */
export async function insertRubricOperation(
  tx: Executor,
  values: {
    rubricId: string;
    revision: number;
    clientOpId?: string;
    userId: string | null;
    kind: string;
    payload: unknown;
  },
): Promise<void> {
  await tx.insert(rubricOperations).values(values);
}
