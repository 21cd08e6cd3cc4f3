import "server-only";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Variant } from "@/lib/grading/variant";
import type { JobStatus } from "@/lib/jobs/states";
import type { LabSubmission } from "@/lib/judge/lab/types";
import type { Executor } from "../client";
import {
  agents,
  gradingOverrides,
  gradings,
  gradingVerdicts,
  jobs,
  judgeLabRuns,
  judgeLabs,
  judgeRuns,
  paperJudgeAddenda,
  papers,
  submissions,
  users,
  type JudgeLab,
  type Paper,
  type PaperJudgeAddendum,
} from "../schema";
import { toDate, type SqlTimestamp } from "./sql-row";

/** The judge lab's reads and writes: labelled submissions, labs and their runs, overrides, addendum versions. */

interface LabSubmissionSqlRow extends Record<string, unknown> {
  id: string;
  paper_id: string;
  title: string;
  agent_name: string;
  run_index: number;
  variant: Variant;
  truth_id: string;
  is_human: boolean;
}

function toLabSubmission(r: LabSubmissionSqlRow): LabSubmission {
  return {
    submissionId: r.id,
    paperId: r.paper_id,
    paperTitle: r.title,
    agentName: r.agent_name,
    runIndex: r.run_index,
    variant: r.variant,
    truthGradingId: r.truth_id,
    truth: r.is_human ? "human_grading" : "review",
  };
}

/**
 * The submissions with a human truth: the latest human grading, else the (non-lab) judge grading
 * a review covered last. Only papers in `paperIds` when given; by paper, agent, variant and run.
 */
export async function listLabSubmissionRows(
  db: Executor,
  opts: { paperIds?: readonly string[] } = {},
): Promise<LabSubmission[]> {
  if (opts.paperIds && opts.paperIds.length === 0) return [];
  const result = await db.execute<LabSubmissionSqlRow>(sql`
    WITH h AS (
      SELECT DISTINCT ON (submission_id) submission_id, id
      FROM gradings WHERE kind = 'human' AND NOT is_lab
      ORDER BY submission_id, created_at DESC, id DESC
    ), r AS (
      SELECT DISTINCT ON (submission_id) submission_id, id
      FROM gradings WHERE kind = 'judge' AND reviewed_at IS NOT NULL AND NOT is_lab
      ORDER BY submission_id, reviewed_at DESC, id DESC
    )
    SELECT s.id, s.paper_id, p.title, a.name AS agent_name, s.run_index, s.variant,
      coalesce(h.id, r.id) AS truth_id, (h.id IS NOT NULL) AS is_human
    FROM submissions s
    JOIN agents a ON a.id = s.agent_id
    JOIN papers p ON p.id = s.paper_id
    LEFT JOIN h ON h.submission_id = s.id
    LEFT JOIN r ON r.submission_id = s.id
    WHERE (h.id IS NOT NULL OR r.id IS NOT NULL)
      ${opts.paperIds ? sql`AND s.paper_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(opts.paperIds)}::jsonb))` : sql``}
    ORDER BY s.paper_id, a.name, s.variant, s.run_index
  `);
  return result.rows.map(toLabSubmission);
}

export async function insertJudgeLab(
  tx: Executor,
  values: { name: string; createdBy: string | null },
): Promise<JudgeLab> {
  const [row] = await tx.insert(judgeLabs).values(values).returning();
  return row;
}

export async function insertJudgeLabRuns(tx: Executor, rows: (typeof judgeLabRuns.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(judgeLabRuns).values(rows);
}

export async function getJudgeLab(db: Executor, id: string): Promise<JudgeLab | null> {
  const [row] = await db.select().from(judgeLabs).where(eq(judgeLabs.id, id)).limit(1);
  return row ?? null;
}

export interface JudgeLabListRow {
  id: string;
  name: string;
  createdAt: Date;
  runs: number;
  pending: number;
  paperIds: string[];
}

interface JudgeLabListSqlRow extends Record<string, unknown> {
  id: string;
  name: string;
  created_at: SqlTimestamp;
  runs: number;
  pending: number;
  paper_ids: string[];
}

function toJudgeLabListRow(r: JudgeLabListSqlRow): JudgeLabListRow {
  return {
    id: r.id,
    name: r.name,
    createdAt: toDate(r.created_at),
    runs: r.runs,
    pending: r.pending,
    paperIds: r.paper_ids,
  };
}

/** Every lab, newest first, with its run count, runs not ended yet and papers. */
export async function listJudgeLabRows(db: Executor): Promise<JudgeLabListRow[]> {
  const result = await db.execute<JudgeLabListSqlRow>(sql`
    SELECT l.id, l.name, l.created_at,
      count(lr.judge_run_id)::int AS runs,
      count(*) FILTER (WHERE j.status IN ('queued', 'running'))::int AS pending,
      coalesce(jsonb_agg(DISTINCT lr.paper_id) FILTER (WHERE lr.paper_id IS NOT NULL), '[]'::jsonb) AS paper_ids
    FROM judge_labs l
    LEFT JOIN judge_lab_runs lr ON lr.lab_id = l.id
    LEFT JOIN judge_runs jr ON jr.id = lr.judge_run_id
    LEFT JOIN jobs j ON j.id = jr.job_id
    GROUP BY l.id
    ORDER BY l.created_at DESC, l.id
  `);
  return result.rows.map(toJudgeLabListRow);
}

export interface LabRunRow {
  judgeRunId: string;
  labId: string;
  gradingId: string;
  submissionId: string;
  paperId: string;
  agentName: string;
  runIndex: number;
  configId: string | null;
  configName: string;
  truthGradingId: string;
  addendumVersion: number | null;
  /** The judge addendum's text when the run started. */
  judgeAddendum: string;
  /** The variant the run graded. */
  variant: Variant;
  jobStatus: JobStatus | null;
  leavesDone: number;
  leavesTotal: number;
  costUsd: number;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** The runs of a lab, or every lab run on a paper; in the order they were started. */
export async function listLabRunRows(
  db: Executor,
  where: { labId: string } | { paperId: string },
): Promise<LabRunRow[]> {
  return db
    .select({
      judgeRunId: judgeLabRuns.judgeRunId,
      labId: judgeLabRuns.labId,
      gradingId: judgeRuns.gradingId,
      submissionId: judgeRuns.submissionId,
      paperId: judgeLabRuns.paperId,
      agentName: agents.name,
      runIndex: submissions.runIndex,
      configId: judgeLabRuns.configId,
      configName: judgeLabRuns.configName,
      truthGradingId: judgeLabRuns.truthGradingId,
      addendumVersion: judgeLabRuns.addendumVersion,
      judgeAddendum: judgeLabRuns.judgeAddendum,
      variant: judgeRuns.variant,
      jobStatus: jobs.status,
      leavesDone: judgeRuns.leavesDone,
      leavesTotal: judgeRuns.leavesTotal,
      costUsd: judgeRuns.costUsd,
      startedAt: judgeRuns.startedAt,
      finishedAt: judgeRuns.finishedAt,
    })
    .from(judgeLabRuns)
    .innerJoin(judgeRuns, eq(judgeRuns.id, judgeLabRuns.judgeRunId))
    .innerJoin(submissions, eq(submissions.id, judgeRuns.submissionId))
    .innerJoin(agents, eq(agents.id, submissions.agentId))
    .leftJoin(jobs, eq(jobs.id, judgeRuns.jobId))
    .where("labId" in where ? eq(judgeLabRuns.labId, where.labId) : eq(judgeLabRuns.paperId, where.paperId))
    .orderBy(judgeRuns.createdAt, judgeLabRuns.configName, submissions.paperId, agents.name, submissions.runIndex);
}

export interface JudgeOverrideRow {
  id: string;
  gradingId: string;
  rubricVersionId: string;
  rubricView: Variant;
  submissionId: string;
  agentName: string;
  runIndex: number;
  nodeKey: string;
  nodeId: string;
  judgeScore: number;
  newScore: number;
  reason: string;
  userName: string | null;
  createdAt: Date;
}

/** The overrides of judge verdicts on a paper's judge gradings, oldest first. */
export async function listPaperJudgeOverrideRows(db: Executor, paperId: string): Promise<JudgeOverrideRow[]> {
  return db
    .select({
      id: gradingOverrides.id,
      gradingId: gradingOverrides.gradingId,
      rubricVersionId: gradings.rubricVersionId,
      rubricView: gradings.rubricView,
      submissionId: submissions.id,
      agentName: agents.name,
      runIndex: submissions.runIndex,
      nodeKey: gradingOverrides.nodeKey,
      nodeId: gradingVerdicts.nodeId,
      judgeScore: gradingVerdicts.score,
      newScore: gradingOverrides.newScore,
      reason: gradingOverrides.reason,
      userName: sql<string | null>`coalesce(${users.name}, ${users.email})`,
      createdAt: gradingOverrides.createdAt,
    })
    .from(gradingOverrides)
    .innerJoin(gradings, eq(gradings.id, gradingOverrides.gradingId))
    .innerJoin(
      gradingVerdicts,
      and(
        eq(gradingVerdicts.gradingId, gradingOverrides.gradingId),
        eq(gradingVerdicts.nodeKey, gradingOverrides.nodeKey),
      ),
    )
    .innerJoin(submissions, eq(submissions.id, gradings.submissionId))
    .innerJoin(agents, eq(agents.id, submissions.agentId))
    .leftJoin(users, eq(users.id, gradingOverrides.userId))
    .where(and(eq(submissions.paperId, paperId), eq(gradings.kind, "judge")))
    .orderBy(gradingOverrides.seq);
}

/** A paper's accepted judge-addendum versions, oldest first. */
export async function listPaperAddenda(db: Executor, paperId: string): Promise<PaperJudgeAddendum[]> {
  return db
    .select()
    .from(paperJudgeAddenda)
    .where(eq(paperJudgeAddenda.paperId, paperId))
    .orderBy(asc(paperJudgeAddenda.version));
}

export async function getLatestPaperAddendum(db: Executor, paperId: string): Promise<PaperJudgeAddendum | null> {
  const [row] = await db
    .select()
    .from(paperJudgeAddenda)
    .where(eq(paperJudgeAddenda.paperId, paperId))
    .orderBy(desc(paperJudgeAddenda.version))
    .limit(1);
  return row ?? null;
}

export async function insertPaperAddendum(
  tx: Executor,
  values: typeof paperJudgeAddenda.$inferInsert,
): Promise<PaperJudgeAddendum> {
  const [row] = await tx.insert(paperJudgeAddenda).values(values).returning();
  return row;
}

/** The paper, locked until the transaction ends: addendum versions are numbered one at a time. */
export async function lockPaper(tx: Executor, paperId: string): Promise<Paper | null> {
  const [row] = await tx.select().from(papers).where(eq(papers.id, paperId)).for("update");
  return row ?? null;
}

export async function setPaperJudgeAddendum(tx: Executor, paperId: string, text: string): Promise<void> {
  await tx.update(papers).set({ judgeAddendum: text, updatedAt: new Date() }).where(eq(papers.id, paperId));
}
