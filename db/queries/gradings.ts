import "server-only";
import { and, asc, desc, eq, sql, type InferInsertModel } from "drizzle-orm";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import type { GradingProvenance } from "@/lib/evaluations/provenance";
import type { Executor } from "../client";
import {
  agents,
  gradingOverrides,
  gradingVerdicts,
  gradings,
  rubricVersions,
  submissions,
  users,
  type Grading,
  type GradingKind,
  type SubmissionVariant,
} from "../schema";
import { toUserRef, type UserRef } from "./users";

/** The gradings table: a grading's row, the list with its run, and the version it pinned. */

export async function getGradingById(db: Executor, id: string): Promise<Grading | null> {
  const [row] = await db.select().from(gradings).where(eq(gradings.id, id)).limit(1);
  return row ?? null;
}

/** The grading's row, locked for update for the rest of the transaction (writers take turns). */
export async function lockGradingById(tx: Executor, id: string): Promise<Grading | null> {
  const [row] = await tx.select().from(gradings).where(eq(gradings.id, id)).for("update");
  return row ?? null;
}

export async function insertGrading(tx: Executor, values: InferInsertModel<typeof gradings>): Promise<string> {
  const [grading] = await tx.insert(gradings).values(values).returning({ id: gradings.id });
  return grading.id;
}

/** Sets the grading's effective root score. */
export async function setGradingScore(tx: Executor, id: string, score: number): Promise<void> {
  await tx.update(gradings).set({ score }).where(eq(gradings.id, id));
}

/** When a review covered every leaf, and the stored effective root score. */
export async function getGradingReviewState(
  db: Executor,
  id: string,
): Promise<{ reviewedAt: Date | null; score: number } | null> {
  const [row] = await db
    .select({ reviewedAt: gradings.reviewedAt, score: gradings.score })
    .from(gradings)
    .where(eq(gradings.id, id))
    .limit(1);
  return row ?? null;
}

export interface GradingListItem {
  id: string;
  paperId: string;
  submissionId: string;
  agentId: string;
  agentName: string;
  runIndex: number;
  variant: SubmissionVariant;
  kind: GradingKind;
  judgeType: string | null;
  judgeModel: string | null;
  gradedAt: Date | null;
  /** The effective root score (latest overrides applied). */
  score: number;
  importedScore: number | null;
  rubricVersionId: string;
  rubricVersionName: string;
  rubricRevision: number;
  rubricView: SubmissionVariant;
  leafCount: number;
  overrideCount: number;
  fileName: string | null;
  /** How it was made (migration 0021); null for a row older than it. */
  provenance: GradingProvenance | null;
  /** Graded by a placeholder judge (Dummy, Random): members only. */
  judgePlaceholder: boolean;
  createdAt: Date;
  createdBy: UserRef | null;
}

const listColumns = {
  id: gradings.id,
  paperId: submissions.paperId,
  submissionId: gradings.submissionId,
  agentId: submissions.agentId,
  agentName: agents.name,
  runIndex: submissions.runIndex,
  variant: submissions.variant,
  kind: gradings.kind,
  judgeType: gradings.judgeType,
  judgeModel: gradings.judgeModel,
  gradedAt: gradings.gradedAt,
  score: gradings.score,
  importedScore: gradings.importedScore,
  rubricVersionId: gradings.rubricVersionId,
  rubricVersionName: rubricVersions.name,
  rubricRevision: rubricVersions.revision,
  rubricView: gradings.rubricView,
  leafCount: sql<number>`(SELECT count(*)::int FROM ${gradingVerdicts} WHERE ${gradingVerdicts.gradingId} = ${gradings.id})`,
  overrideCount: sql<number>`(SELECT count(*)::int FROM ${gradingOverrides} WHERE ${gradingOverrides.gradingId} = ${gradings.id})`,
  fileName: sql<string | null>`${gradings.source}->>'fileName'`,
  provenance: gradings.provenance,
  judgePlaceholder: gradings.judgePlaceholder,
  createdAt: gradings.createdAt,
  createdByName: users.name,
  createdByEmail: users.email,
};

function listQuery(db: Executor) {
  return db
    .select(listColumns)
    .from(gradings)
    .innerJoin(submissions, eq(submissions.id, gradings.submissionId))
    .innerJoin(agents, eq(agents.id, submissions.agentId))
    .innerJoin(rubricVersions, eq(rubricVersions.id, gradings.rubricVersionId))
    .leftJoin(users, eq(users.id, gradings.createdBy));
}

function toListItem(row: Awaited<ReturnType<ReturnType<typeof listQuery>["execute"]>>[number]): GradingListItem {
  const { createdByName, createdByEmail, ...rest } = row;
  return {
    ...rest,
    leafCount: Number(rest.leafCount),
    overrideCount: Number(rest.overrideCount),
    createdBy: toUserRef(createdByName, createdByEmail),
  };
}

/** The gradings of a paper's submissions, by agent, variant and run, newest grading first. */
export async function listGradingsByPaperId(db: Executor, paperId: string): Promise<GradingListItem[]> {
  const rows = await listQuery(db)
    .where(eq(submissions.paperId, paperId))
    .orderBy(asc(agents.name), asc(submissions.variant), asc(submissions.runIndex), desc(gradings.createdAt));
  return rows.map(toListItem);
}

/** One grading with its run (paper, agent, run), or null. */
export async function getGradingItemById(db: Executor, id: string): Promise<GradingListItem | null> {
  const [row] = await listQuery(db).where(eq(gradings.id, id)).limit(1);
  return row ? toListItem(row) : null;
}

// ── The pinned rubric version ────────────────────────────────────────────────

/** The rows of a rubric version's snapshot (every node, any view), or null when it is gone. */
export async function getRubricVersionRows(db: Executor, versionId: string): Promise<NodeRow[] | null> {
  const [version] = await db
    .select({ snapshot: rubricVersions.snapshot })
    .from(rubricVersions)
    .where(eq(rubricVersions.id, versionId))
    .limit(1);
  return version ? (version.snapshot as { rows: NodeRow[] }).rows : null;
}

/** The version (and view) the earliest grading with this rubric fingerprint pinned, with the version's rows. */
export async function findGradedVersionByFingerprint(
  tx: Executor,
  rubricId: string,
  fingerprint: string,
): Promise<{ versionId: string; rubricView: SubmissionVariant; rows: NodeRow[] } | null> {
  const [row] = await tx
    .select({ versionId: gradings.rubricVersionId, rubricView: gradings.rubricView, snapshot: rubricVersions.snapshot })
    .from(gradings)
    .innerJoin(rubricVersions, eq(rubricVersions.id, gradings.rubricVersionId))
    .where(and(eq(gradings.rubricFingerprint, fingerprint), eq(rubricVersions.rubricId, rubricId)))
    .orderBy(asc(gradings.createdAt))
    .limit(1);
  return row
    ? { versionId: row.versionId, rubricView: row.rubricView, rows: (row.snapshot as { rows: NodeRow[] }).rows }
    : null;
}

/**
 * The earliest version made at this revision with this many rows and this root (`rootKey` with no
 * parent): the live tree's version when the keys are the live rows' own.
 */
export async function findRubricVersionIdByShape(
  tx: Executor,
  input: { rubricId: string; revision: number; rowCount: number; rootKey: string },
): Promise<string | null> {
  const [row] = await tx
    .select({ id: rubricVersions.id })
    .from(rubricVersions)
    .where(
      and(
        eq(rubricVersions.rubricId, input.rubricId),
        eq(rubricVersions.revision, input.revision),
        sql`jsonb_array_length(${rubricVersions.snapshot}->'rows') = ${input.rowCount}`,
        sql`${rubricVersions.snapshot}->'rows' @> ${JSON.stringify([{ key: input.rootKey, parentKey: null }])}::jsonb`,
      ),
    )
    .orderBy(asc(rubricVersions.createdAt))
    .limit(1);
  return row?.id ?? null;
}

/** A judge run's grading once its run ended: when it was graded and every model's token totals. */
export async function setGradingJudgeFinished(db: Executor, id: string, tokenUsage: unknown): Promise<void> {
  await db
    .update(gradings)
    .set({ gradedAt: sql`now()`, tokenUsage })
    .where(eq(gradings.id, id));
}
