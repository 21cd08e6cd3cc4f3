import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import type { Executor } from "../client";
import { rubricVersions, users } from "../schema";
import { toUserRef, type UserRef } from "./users";

export interface RubricVersionItem {
  id: string;
  name: string;
  revision: number;
  createdAt: Date;
  createdBy: UserRef | null;
}

/** A version's snapshot: the live rows with their keys, so diffs match nodes by identity. */
interface VersionSnapshot {
  rows: NodeRow[];
}

const versionColumns = {
  id: rubricVersions.id,
  name: rubricVersions.name,
  revision: rubricVersions.revision,
  createdAt: rubricVersions.createdAt,
  createdByName: users.name,
  createdByEmail: users.email,
};

function toItem(row: {
  id: string;
  name: string;
  revision: number;
  createdAt: Date;
  createdByName: string | null;
  createdByEmail: string | null;
}): RubricVersionItem {
  return {
    id: row.id,
    name: row.name,
    revision: row.revision,
    createdAt: row.createdAt,
    createdBy: toUserRef(row.createdByName, row.createdByEmail),
  };
}

export async function listRubricVersions(db: Executor, rubricId: string): Promise<RubricVersionItem[]> {
  const rows = await db
    .select(versionColumns)
    .from(rubricVersions)
    .leftJoin(users, eq(users.id, rubricVersions.createdBy))
    .where(eq(rubricVersions.rubricId, rubricId))
    .orderBy(desc(rubricVersions.createdAt), desc(rubricVersions.revision));
  return rows.map(toItem);
}

/** Stores rows as a named version of the rubric at `revision`. */
export async function insertRubricVersion(
  tx: Executor,
  input: { rubricId: string; name: string; revision: number; rows: NodeRow[]; userId: string | null },
): Promise<RubricVersionItem> {
  const snapshot: VersionSnapshot = { rows: input.rows };
  const [version] = await tx
    .insert(rubricVersions)
    .values({ rubricId: input.rubricId, name: input.name, revision: input.revision, snapshot, createdBy: input.userId })
    .returning({ id: rubricVersions.id });
  const [item] = await tx
    .select(versionColumns)
    .from(rubricVersions)
    .leftJoin(users, eq(users.id, rubricVersions.createdBy))
    .where(eq(rubricVersions.id, version.id));
  return toItem(item);
}

/** A version of the rubric with its rows; null when the rubric has no such version. */
export async function getRubricVersion(
  db: Executor,
  rubricId: string,
  versionId: string,
): Promise<{ version: RubricVersionItem; nodes: NodeRow[] } | null> {
  const [row] = await db
    .select({ ...versionColumns, snapshot: rubricVersions.snapshot })
    .from(rubricVersions)
    .leftJoin(users, eq(users.id, rubricVersions.createdBy))
    .where(and(eq(rubricVersions.id, versionId), eq(rubricVersions.rubricId, rubricId)))
    .limit(1);
  if (!row) return null;
  return { version: toItem(row), nodes: (row.snapshot as VersionSnapshot).rows };
}
