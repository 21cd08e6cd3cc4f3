import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { gradingAssignments, gradingVerdicts, gradings } from "../schema";

/** Moving a grading to another rubric version: its pin, and its verdicts' keys in that version. */

/** Pins the grading to another version of its rubric; a review that covered every leaf no longer does. */
export async function setGradingPin(
  tx: Executor,
  gradingId: string,
  pin: { rubricVersionId: string; rubricFingerprint: string },
): Promise<void> {
  await tx
    .update(gradings)
    .set({ ...pin, reviewedAt: null })
    .where(eq(gradings.id, gradingId));
}

/** Drops verdicts (their overrides and review marks go with them). */
export async function deleteVerdictsByKeys(
  tx: Executor,
  gradingId: string,
  nodeKeys: readonly string[],
): Promise<void> {
  if (nodeKeys.length === 0) return;
  await tx
    .delete(gradingVerdicts)
    .where(and(eq(gradingVerdicts.gradingId, gradingId), inArray(gradingVerdicts.nodeKey, [...nodeKeys])));
}

/**
 * Gives kept verdicts their leaf's key and id in the new version, each keeping the version it was
 * made against; overrides and review marks follow (they reference the verdict, so the verdict is
 * copied under its new key first, they are moved, and the old row goes); unsure flags too.
 */
export async function rekeyVerdicts(
  tx: Executor,
  gradingId: string,
  moves: readonly { from: string; to: string; nodeId: string }[],
): Promise<void> {
  const renamed = moves.filter((m) => m.from !== m.to);
  const payload = JSON.stringify(moves.map((m) => ({ from_key: m.from, to_key: m.to, node_id: m.nodeId })));
  if (renamed.length > 0) {
    const renamedPayload = JSON.stringify(renamed.map((m) => ({ from_key: m.from, to_key: m.to, node_id: m.nodeId })));
    await tx.execute(sql`
      INSERT INTO grading_verdicts (grading_id, node_key, node_id, score, valid, explanation, source, judge_metadata, file_detail, rubric_version_id)
      SELECT v.grading_id, m.to_key, m.node_id, v.score, v.valid, v.explanation, v.source, v.judge_metadata, v.file_detail, v.rubric_version_id
      FROM grading_verdicts v JOIN jsonb_to_recordset(${renamedPayload}::jsonb) AS m(from_key uuid, to_key uuid, node_id text) ON v.node_key = m.from_key
      WHERE v.grading_id = ${gradingId}::uuid
    `);
    for (const table of ["grading_overrides", "grading_reviews", "grading_unsure_flags"] as const) {
      await tx.execute(sql`
        UPDATE ${sql.identifier(table)} t SET node_key = m.to_key
        FROM jsonb_to_recordset(${renamedPayload}::jsonb) AS m(from_key uuid, to_key uuid)
        WHERE t.grading_id = ${gradingId}::uuid AND t.node_key = m.from_key
      `);
    }
    await deleteVerdictsByKeys(
      tx,
      gradingId,
      renamed.map((m) => m.from),
    );
  }
  // A kept leaf whose PaperBench id was edited answers to its new id.
  await tx.execute(sql`
    UPDATE grading_verdicts v SET node_id = m.node_id
    FROM jsonb_to_recordset(${payload}::jsonb) AS m(from_key uuid, to_key uuid, node_id text)
    WHERE v.grading_id = ${gradingId}::uuid AND v.node_key = m.to_key AND v.node_id <> m.node_id
  `);
}

/**
 * Assignments name subtrees by node key: under a version with other keys, each names its node's
 * key there (`newKeyOf`); a node the new version lacks is left out of the assignment.
 */
export async function remapAssignmentKeys(
  tx: Executor,
  gradingId: string,
  newKeyOf: ReadonlyMap<string, string>,
): Promise<void> {
  const rows = await tx
    .select({ id: gradingAssignments.id, nodeKeys: gradingAssignments.nodeKeys })
    .from(gradingAssignments)
    .where(eq(gradingAssignments.gradingId, gradingId));
  for (const row of rows) {
    if (row.nodeKeys === null) continue;
    const nodeKeys = row.nodeKeys.flatMap((k) => (newKeyOf.has(k) ? [newKeyOf.get(k)!] : []));
    if (nodeKeys.length !== row.nodeKeys.length || nodeKeys.some((k, i) => k !== row.nodeKeys![i])) {
      await tx.update(gradingAssignments).set({ nodeKeys }).where(eq(gradingAssignments.id, row.id));
    }
  }
}

/** How many of a grading's verdicts were made against each rubric version. */
export async function countVerdictsByRubricVersion(db: Executor, gradingId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ versionId: gradingVerdicts.rubricVersionId, n: sql<number>`count(*)::int` })
    .from(gradingVerdicts)
    .where(eq(gradingVerdicts.gradingId, gradingId))
    .groupBy(gradingVerdicts.rubricVersionId);
  return new Map(rows.map((r) => [r.versionId, Number(r.n)]));
}
