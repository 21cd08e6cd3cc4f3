import "server-only";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Executor } from "../client";
import { rubricNodes, rubricOperations, users } from "../schema";
import { toUserRef, type UserRef } from "./users";

/** A rubric's deleted rows, with the revision that deleted each. */
export async function getDeletedNodeRows(
  db: Executor,
  rubricId: string,
): Promise<{ key: string; parentKey: string | null; nodeId: string; requirements: string; deletedRevision: number }[]> {
  const rows = await db
    .select({
      key: rubricNodes.key,
      parentKey: rubricNodes.parentKey,
      nodeId: rubricNodes.nodeId,
      requirements: rubricNodes.requirements,
      deletedRevision: rubricNodes.deletedRevision,
    })
    .from(rubricNodes)
    .where(and(eq(rubricNodes.rubricId, rubricId), isNotNull(rubricNodes.deletedRevision)));
  return rows.map((r) => ({ ...r, deletedRevision: r.deletedRevision! }));
}

/** When, by whom and by which kind of operation these revisions were made. */
export async function getRevisionAuthors(
  db: Executor,
  rubricId: string,
  revisions: number[],
): Promise<{ revision: number; kind: string; createdAt: Date; user: UserRef | null }[]> {
  const log = await db
    .select({
      revision: rubricOperations.revision,
      kind: rubricOperations.kind,
      createdAt: rubricOperations.createdAt,
      userName: users.name,
      userEmail: users.email,
    })
    .from(rubricOperations)
    .leftJoin(users, eq(users.id, rubricOperations.userId))
    .where(and(eq(rubricOperations.rubricId, rubricId), inArray(rubricOperations.revision, revisions)));
  return log.map(({ userName, userEmail, ...l }) => ({ ...l, user: toUserRef(userName, userEmail) }));
}

/** The requirement texts of these nodes of the rubric, by key. */
export async function getNodeTexts(db: Executor, rubricId: string, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: rubricNodes.key, requirements: rubricNodes.requirements })
    .from(rubricNodes)
    .where(and(eq(rubricNodes.rubricId, rubricId), inArray(rubricNodes.key, keys)));
  return new Map(rows.map((p) => [p.key, p.requirements]));
}
