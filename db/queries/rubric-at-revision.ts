import "server-only";
import { and, asc, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { RubricNode } from "@/lib/rubric/types";
import type { Executor } from "../client";
import { rubricNodes, rubricOperations, rubrics } from "../schema";

export async function getRubricRevision(db: Executor, rubricId: string): Promise<number | null> {
  const [rubric] = await db
    .select({ revision: rubrics.revision })
    .from(rubrics)
    .where(eq(rubrics.id, rubricId))
    .limit(1);
  return rubric?.revision ?? null;
}

/** The last import at or before `revision`, with its tree and (when it recorded them) its keys. */
export async function getLastImportAtOrBefore(
  db: Executor,
  rubricId: string,
  revision: number,
): Promise<{ revision: number; tree: RubricNode; keys: string[] | null } | null> {
  const [start] = await db
    .select({
      revision: rubricOperations.revision,
      tree: sql<RubricNode>`${rubricOperations.payload} -> 'tree'`,
      keys: sql<string[] | null>`${rubricOperations.payload} -> 'keys'`,
    })
    .from(rubricOperations)
    .where(
      and(
        eq(rubricOperations.rubricId, rubricId),
        eq(rubricOperations.kind, "import"),
        lte(rubricOperations.revision, revision),
      ),
    )
    .orderBy(desc(rubricOperations.revision))
    .limit(1);
  return start ?? null;
}

/** The logged operations after `after` up to `upTo`, oldest first: only the operations, not their inverses (half the bytes). */
export async function getOperationsBetween(
  db: Executor,
  rubricId: string,
  after: number,
  upTo: number,
): Promise<{ revision: number; op: RubricOperation }[]> {
  return db
    .select({ revision: rubricOperations.revision, op: sql<RubricOperation>`${rubricOperations.payload} -> 'op'` })
    .from(rubricOperations)
    .where(
      and(
        eq(rubricOperations.rubricId, rubricId),
        gt(rubricOperations.revision, after),
        lte(rubricOperations.revision, upTo),
      ),
    )
    .orderBy(asc(rubricOperations.revision));
}

export async function hasImportAfter(db: Executor, rubricId: string, revision: number): Promise<boolean> {
  const [later] = await db
    .select({ revision: rubricOperations.revision })
    .from(rubricOperations)
    .where(
      and(
        eq(rubricOperations.rubricId, rubricId),
        eq(rubricOperations.kind, "import"),
        gt(rubricOperations.revision, revision),
      ),
    )
    .limit(1);
  return later !== undefined;
}

/** Where every stored row of a rubric sits (live or deleted). */
export async function getNodePlacements(
  db: Executor,
  rubricId: string,
): Promise<{ key: string; parentKey: string | null; position: string }[]> {
  return db
    .select({ key: rubricNodes.key, parentKey: rubricNodes.parentKey, position: rubricNodes.position })
    .from(rubricNodes)
    .where(eq(rubricNodes.rubricId, rubricId));
}

/** The operations after `revision` with their inverses, oldest first. */
export async function getOperationsWithInversesAfter(
  db: Executor,
  rubricId: string,
  revision: number,
): Promise<{ op: RubricOperation; inverse: RubricOperation }[]> {
  return db
    .select({
      op: sql<RubricOperation>`${rubricOperations.payload} -> 'op'`,
      inverse: sql<RubricOperation>`${rubricOperations.payload} -> 'inverse'`,
    })
    .from(rubricOperations)
    .where(and(eq(rubricOperations.rubricId, rubricId), gt(rubricOperations.revision, revision)))
    .orderBy(asc(rubricOperations.revision));
}
