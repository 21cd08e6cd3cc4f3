import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { Executor } from "../client";
import { rubricOperations, users } from "../schema";
import { toUserRef, type UserRef } from "./users";

export interface NodeHistoryEntry {
  revision: number;
  kind: string;
  createdAt: Date;
  user: UserRef | null;
  op: RubricOperation;
}

/**
 * Who changed a node, when and how: the logged operations that name its key (newest first). The
 * log is the history; nothing else records it.
 */
export async function getNodeHistory(
  db: Executor,
  rubricId: string,
  key: string,
  limit = 100,
): Promise<NodeHistoryEntry[]> {
  const rows = await db
    .select({
      revision: rubricOperations.revision,
      kind: rubricOperations.kind,
      createdAt: rubricOperations.createdAt,
      payload: rubricOperations.payload,
      userName: users.name,
      userEmail: users.email,
    })
    .from(rubricOperations)
    .leftJoin(users, eq(users.id, rubricOperations.userId))
    .where(
      and(
        eq(rubricOperations.rubricId, rubricId),
        sql`${rubricOperations.kind} <> 'import'`,
        sql`jsonb_path_exists(${rubricOperations.payload} -> 'op', '$.** ? (@ == $key)', jsonb_build_object('key', ${key}::text))`,
      ),
    )
    .orderBy(desc(rubricOperations.revision))
    .limit(limit);
  return rows.map((r) => ({
    revision: r.revision,
    kind: r.kind,
    createdAt: r.createdAt,
    user: toUserRef(r.userName, r.userEmail),
    op: (r.payload as { op: RubricOperation }).op,
  }));
}
