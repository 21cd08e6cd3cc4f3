import "server-only";
import type { Executor } from "@/db/client";
import { listRevisionDigests } from "@/db/queries/rubric-revisions";
import type { UserRef } from "@/db/queries/users";
import { summarizeRevision } from "@/lib/rubric/revision-summary";

export interface RevisionItem {
  revision: number;
  kind: string;
  createdAt: Date;
  user: UserRef | null;
  summary: string;
}

/** The log, newest first, one summarised line per revision: `limit` revisions at or before `before` (default: the latest). */
export async function listRubricRevisions(db: Executor, rubricId: string, opts: { before?: number; limit?: number } = {}): Promise<RevisionItem[]> {
  const rows = await listRevisionDigests(db, rubricId, opts);
  return rows.map(({ digest, ...r }) => ({ ...r, summary: summarizeRevision({ ...digest, kind: r.kind }) }));
}
