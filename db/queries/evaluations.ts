import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { agents, evaluations, submissions, type Evaluation } from "../schema";
import type { InferInsertModel } from "drizzle-orm";
import type { ImportedRunResult } from "@/lib/evaluations/schemas";

export async function insertEvaluation(
  db: Executor,
  values: InferInsertModel<typeof evaluations>,
): Promise<Evaluation> {
  const [row] = await db.insert(evaluations).values(values).returning();
  return row;
}

export async function getEvaluationById(
  db: Executor,
  id: string,
): Promise<(Evaluation & { agentName: string }) | null> {
  const [row] = await db
    .select({ evaluation: evaluations, agentName: agents.name })
    .from(evaluations)
    .innerJoin(agents, eq(agents.id, evaluations.agentId))
    .where(eq(evaluations.id, id))
    .limit(1);
  return row ? { ...row.evaluation, agentName: row.agentName } : null;
}

export async function listEvaluations(
  db: Executor,
): Promise<(Evaluation & { agentName: string; submissions: number })[]> {
  const rows = await db
    .select({
      evaluation: evaluations,
      agentName: agents.name,
      submissions: sql<number>`(SELECT count(*) FROM submissions s WHERE s.evaluation_id = ${evaluations.id})::int`,
    })
    .from(evaluations)
    .innerJoin(agents, eq(agents.id, evaluations.agentId))
    .orderBy(desc(evaluations.createdAt), desc(evaluations.id));
  return rows.map((r) => ({ ...r.evaluation, agentName: r.agentName, submissions: Number(r.submissions) }));
}

export async function setSubmissionEvaluation(
  db: Executor,
  submissionId: string,
  values: { evaluationId: string; importedResult: ImportedRunResult | null; executedArchiveSha256: string | null },
): Promise<void> {
  await db.update(submissions).set(values).where(eq(submissions.id, submissionId));
}

export async function setSubmissionEvaluationId(
  db: Executor,
  submissionId: string,
  evaluationId: string,
): Promise<void> {
  await db.update(submissions).set({ evaluationId }).where(eq(submissions.id, submissionId));
}
