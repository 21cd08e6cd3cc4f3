import "server-only";
import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { RevisionDigest } from "@/lib/rubric/revision-summary";
import type { Executor } from "../client";
import { rubricOperations, users } from "../schema";
import { toUserRef, type UserRef } from "./users";

/** One logged revision with a digest of its operation (for its one-line summary). */
export interface RevisionDigestRow {
  revision: number;
  kind: string;
  createdAt: Date;
  user: UserRef | null;
  digest: RevisionDigest;
}

// The first node an operation names, whatever its kind.
const firstKey = sql`coalesce(
  ${rubricOperations.payload} -> 'op' ->> 'key',
  ${rubricOperations.payload} -> 'op' -> 'keys' ->> 0,
  ${rubricOperations.payload} -> 'op' -> 'nodes' -> 0 ->> 'key',
  ${rubricOperations.payload} -> 'op' -> 'moves' -> 0 ->> 'key')`;

// A digest of each operation computed in the database: logged trees, texts and batches stay there.
const digest = sql<RevisionDigest>`jsonb_build_object(
  'importedNodes', ${rubricOperations.payload} -> 'nodeCount',
  'code', ${rubricOperations.payload} -> 'op' ->> 'code',
  'size', jsonb_array_length(coalesce(
    ${rubricOperations.payload} -> 'op' -> 'nodes', ${rubricOperations.payload} -> 'op' -> 'keys',
    ${rubricOperations.payload} -> 'op' -> 'moves', '[]'::jsonb)),
  'fields', (SELECT jsonb_agg(f) FROM jsonb_object_keys(
    CASE WHEN jsonb_typeof(${rubricOperations.payload} -> 'op' -> 'fields') = 'object'
         THEN ${rubricOperations.payload} -> 'op' -> 'fields' ELSE '{}'::jsonb END) AS f),
  'parts', (SELECT jsonb_object_agg(k, n) FROM (
    SELECT o ->> 'kind' AS k, count(*) AS n
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${rubricOperations.payload} -> 'op' -> 'ops') = 'array'
                                   THEN ${rubricOperations.payload} -> 'op' -> 'ops' ELSE '[]'::jsonb END) AS o
    GROUP BY 1) AS parts),
  'nodeText', (SELECT left(n.requirements, 200) FROM rubric_nodes n
               WHERE n.key = (${firstKey})::uuid AND n.rubric_id = ${rubricOperations.rubricId}))`;

/** The log, newest first: `limit` revisions at or before `before` (default: the latest). */
export async function listRevisionDigests(
  db: Executor,
  rubricId: string,
  opts: { before?: number; limit?: number } = {},
): Promise<RevisionDigestRow[]> {
  const rows = await db
    .select({
      revision: rubricOperations.revision,
      kind: rubricOperations.kind,
      createdAt: rubricOperations.createdAt,
      userName: users.name,
      userEmail: users.email,
      digest,
    })
    .from(rubricOperations)
    .leftJoin(users, eq(users.id, rubricOperations.userId))
    .where(
      and(
        eq(rubricOperations.rubricId, rubricId),
        opts.before !== undefined ? lte(rubricOperations.revision, opts.before) : undefined,
      ),
    )
    .orderBy(desc(rubricOperations.revision))
    .limit(opts.limit ?? 50);
  return rows.map(({ userName, userEmail, ...r }) => ({ ...r, user: toUserRef(userName, userEmail) }));
}
