import "server-only";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { JsonValue } from "@/lib/grading/types";
import type { StoredVerdict } from "@/lib/grading/pinned-tree";
import type { Executor } from "../client";
import { gradingOverrides, gradingVerdicts, users, type GradingOverride, type VerdictSource } from "../schema";
import { toUserRef, type UserRef } from "./users";

/** Verdicts (a judge's or an import's score per leaf) and overrides (people's, append-only). */

// ── Verdicts ─────────────────────────────────────────────────────────────────

export type NewVerdict = StoredVerdict & { nodeId: string; source: VerdictSource };

/**
 * Inserts verdicts in one statement per batch, as one JSON parameter (see insertNodeRows). Each is
 * recorded as made against the grading's pinned rubric version as it is now.
 */
export async function insertVerdicts(tx: Executor, gradingId: string, verdicts: readonly NewVerdict[]): Promise<void> {
  const BATCH = 5_000;
  for (let start = 0; start < verdicts.length; start += BATCH) {
    const payload = JSON.stringify(
      verdicts.slice(start, start + BATCH).map((v) => ({
        node_key: v.nodeKey,
        node_id: v.nodeId,
        score: v.score,
        valid: v.valid,
        explanation: v.explanation,
        source: v.source,
        judge_metadata: v.judgeMetadata ?? null,
        file_detail: v.fileDetail ?? null,
      })),
    );
    await tx.execute(sql`
      INSERT INTO grading_verdicts (grading_id, node_key, node_id, score, valid, explanation, source, judge_metadata, file_detail, rubric_version_id)
      SELECT ${gradingId}::uuid, x.node_key, x.node_id, x.score, x.valid, x.explanation, x.source::verdict_source,
             x.judge_metadata, x.file_detail, (SELECT g.rubric_version_id FROM gradings g WHERE g.id = ${gradingId}::uuid)
      FROM jsonb_to_recordset(${payload}::jsonb) AS x(
        node_key uuid, node_id text, score float8, valid boolean, explanation text, source text,
        judge_metadata jsonb, file_detail jsonb)
    `);
  }
}

/** Every verdict of a grading with its explanation and details (for the graded tree). */
export async function listVerdicts(db: Executor, gradingId: string): Promise<StoredVerdict[]> {
  const rows = await db
    .select({
      nodeKey: gradingVerdicts.nodeKey,
      score: gradingVerdicts.score,
      valid: gradingVerdicts.valid,
      explanation: gradingVerdicts.explanation,
      judgeMetadata: gradingVerdicts.judgeMetadata,
      fileDetail: gradingVerdicts.fileDetail,
    })
    .from(gradingVerdicts)
    .where(eq(gradingVerdicts.gradingId, gradingId));
  return rows.map((v) => ({ ...v, judgeMetadata: (v.judgeMetadata ?? null) as JsonValue }));
}

export interface VerdictState {
  nodeKey: string;
  score: number;
  valid: boolean;
  source: VerdictSource;
}

/**
 * Every verdict of a grading: score, validity and source only. Read as one JSON array, not one row
 * per leaf: a grading has thousands of leaves (pinn 1,963), and reading them row by row cost four
 * times as much (PGlite decodes each row's protocol message in JavaScript, then drizzle maps it).
 * Scores go through float8's shortest exact text either way, so they are the same numbers.
 */
export async function listVerdictStates(db: Executor, gradingId: string): Promise<VerdictState[]> {
  const [row] = await db
    .select({
      list: sql<string>`coalesce(json_agg(json_build_array(${gradingVerdicts.nodeKey}, ${gradingVerdicts.score}, ${gradingVerdicts.valid}, ${gradingVerdicts.source}))::text, '[]')`,
    })
    .from(gradingVerdicts)
    .where(eq(gradingVerdicts.gradingId, gradingId));
  const tuples = JSON.parse(row.list) as [string, number, boolean, VerdictSource][];
  return tuples.map(([nodeKey, score, valid, source]) => ({ nodeKey, score, valid, source }));
}

/** One leaf's verdict: score, validity and source; null when the leaf has none. */
export async function getVerdictState(db: Executor, gradingId: string, nodeKey: string): Promise<VerdictState | null> {
  const [row] = await db
    .select({
      nodeKey: gradingVerdicts.nodeKey,
      score: gradingVerdicts.score,
      valid: gradingVerdicts.valid,
      source: gradingVerdicts.source,
    })
    .from(gradingVerdicts)
    .where(and(eq(gradingVerdicts.gradingId, gradingId), eq(gradingVerdicts.nodeKey, nodeKey)))
    .limit(1);
  return row ?? null;
}

/** One leaf's verdict with the judge's explanation and response; null when the leaf has none. */
export async function getVerdictDetail(db: Executor, gradingId: string, nodeKey: string) {
  const [row] = await db
    .select({
      score: gradingVerdicts.score,
      valid: gradingVerdicts.valid,
      source: gradingVerdicts.source,
      explanation: gradingVerdicts.explanation,
      judgeMetadata: gradingVerdicts.judgeMetadata,
    })
    .from(gradingVerdicts)
    .where(and(eq(gradingVerdicts.gradingId, gradingId), eq(gradingVerdicts.nodeKey, nodeKey)))
    .limit(1);
  return row ?? null;
}

/** The keys of a grading's graded leaves (its verdicts). */
export async function listVerdictKeys(db: Executor, gradingId: string): Promise<string[]> {
  const rows = await db
    .select({ nodeKey: gradingVerdicts.nodeKey })
    .from(gradingVerdicts)
    .where(eq(gradingVerdicts.gradingId, gradingId));
  return rows.map((r) => r.nodeKey);
}

/** How many verdicts (graded leaves) each grading has. */
export async function countVerdictsByGradingIds(
  db: Executor,
  gradingIds: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (gradingIds.length === 0) return out;
  const counts = await db
    .select({ gradingId: gradingVerdicts.gradingId, n: sql<number>`count(*)::int` })
    .from(gradingVerdicts)
    .where(inArray(gradingVerdicts.gradingId, [...gradingIds]))
    .groupBy(gradingVerdicts.gradingId);
  for (const c of counts) out.set(c.gradingId, Number(c.n));
  return out;
}

export interface LeafScoreRow {
  nodeKey: string;
  nodeId: string;
  verdictScore: number;
  valid: boolean;
  source: VerdictSource;
  /** The latest override's score, or null. */
  overrideScore: number | null;
}

/** Each verdict with its leaf's latest override, by node key. */
export async function listLeafScoreRows(db: Executor, gradingId: string): Promise<LeafScoreRow[]> {
  const rows = await db.execute<{
    node_key: string;
    node_id: string;
    score: number;
    valid: boolean;
    source: VerdictSource;
    new_score: number | null;
  }>(sql`
    SELECT v.node_key, v.node_id, v.score, v.valid, v.source, o.new_score
    FROM ${gradingVerdicts} v
    LEFT JOIN LATERAL (
      SELECT new_score FROM ${gradingOverrides} o
      WHERE o.grading_id = v.grading_id AND o.node_key = v.node_key
      ORDER BY o.seq DESC LIMIT 1
    ) o ON true
    WHERE v.grading_id = ${gradingId}
    ORDER BY v.node_key
  `);
  return rows.rows.map((r) => ({
    nodeKey: r.node_key,
    nodeId: r.node_id,
    verdictScore: r.score,
    valid: r.valid,
    source: r.source,
    overrideScore: r.new_score,
  }));
}

// ── Overrides ────────────────────────────────────────────────────────────────

/** Every override of a grading in the order made: leaf and new score. */
export async function listOverrideScores(
  db: Executor,
  gradingId: string,
): Promise<{ nodeKey: string; newScore: number }[]> {
  return db
    .select({ nodeKey: gradingOverrides.nodeKey, newScore: gradingOverrides.newScore })
    .from(gradingOverrides)
    .where(eq(gradingOverrides.gradingId, gradingId))
    .orderBy(asc(gradingOverrides.seq));
}

/** The latest override's score per leaf. */
export async function listLatestOverrideScores(db: Executor, gradingId: string): Promise<Map<string, number>> {
  const latest = await db
    .selectDistinctOn([gradingOverrides.nodeKey], {
      nodeKey: gradingOverrides.nodeKey,
      newScore: gradingOverrides.newScore,
    })
    .from(gradingOverrides)
    .where(eq(gradingOverrides.gradingId, gradingId))
    .orderBy(gradingOverrides.nodeKey, desc(gradingOverrides.seq));
  return new Map(latest.map((r) => [r.nodeKey, r.newScore]));
}

/** The latest override's score of one leaf, or null. */
export async function getLatestOverrideScore(db: Executor, gradingId: string, nodeKey: string): Promise<number | null> {
  const [latest] = await db
    .select({ newScore: gradingOverrides.newScore })
    .from(gradingOverrides)
    .where(and(eq(gradingOverrides.gradingId, gradingId), eq(gradingOverrides.nodeKey, nodeKey)))
    .orderBy(desc(gradingOverrides.seq))
    .limit(1);
  return latest ? latest.newScore : null;
}

export async function insertOverride(
  tx: Executor,
  values: {
    gradingId: string;
    nodeKey: string;
    userId: string | null;
    oldScore: number;
    newScore: number;
    reason: string;
  },
): Promise<GradingOverride> {
  const [override] = await tx.insert(gradingOverrides).values(values).returning();
  return override;
}

export interface GradingOverrideItem {
  id: string;
  nodeKey: string;
  nodeId: string;
  oldScore: number;
  newScore: number;
  reason: string;
  createdAt: Date;
  user: UserRef | null;
}

/** The override history of a grading, oldest first. */
export async function listGradingOverrides(db: Executor, gradingId: string): Promise<GradingOverrideItem[]> {
  const rows = await db
    .select({
      id: gradingOverrides.id,
      nodeKey: gradingOverrides.nodeKey,
      nodeId: gradingVerdicts.nodeId,
      oldScore: gradingOverrides.oldScore,
      newScore: gradingOverrides.newScore,
      reason: gradingOverrides.reason,
      createdAt: gradingOverrides.createdAt,
      userName: users.name,
      userEmail: users.email,
    })
    .from(gradingOverrides)
    .innerJoin(
      gradingVerdicts,
      and(
        eq(gradingVerdicts.gradingId, gradingOverrides.gradingId),
        eq(gradingVerdicts.nodeKey, gradingOverrides.nodeKey),
      ),
    )
    .leftJoin(users, eq(users.id, gradingOverrides.userId))
    .where(eq(gradingOverrides.gradingId, gradingId))
    .orderBy(asc(gradingOverrides.seq));
  return rows.map(({ userName, userEmail, ...r }) => ({ ...r, user: toUserRef(userName, userEmail) }));
}

export interface LeafOverrideRow {
  id: string;
  oldScore: number;
  newScore: number;
  reason: string;
  createdAt: Date;
  userName: string | null;
  userEmail: string | null;
}

/** The overrides of one leaf, oldest first, with who made them. */
export async function listLeafOverrides(db: Executor, gradingId: string, nodeKey: string): Promise<LeafOverrideRow[]> {
  return db
    .select({
      id: gradingOverrides.id,
      oldScore: gradingOverrides.oldScore,
      newScore: gradingOverrides.newScore,
      reason: gradingOverrides.reason,
      createdAt: gradingOverrides.createdAt,
      userName: users.name,
      userEmail: users.email,
    })
    .from(gradingOverrides)
    .leftJoin(users, eq(users.id, gradingOverrides.userId))
    .where(and(eq(gradingOverrides.gradingId, gradingId), eq(gradingOverrides.nodeKey, nodeKey)))
    .orderBy(asc(gradingOverrides.seq));
}
