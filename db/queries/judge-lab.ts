import "server-only";
import { asc, desc, eq, sql } from "drizzle-orm";
import type { JobStatus } from "@/lib/jobs/states";
import type { Executor } from "../client";
import {
  judgeLabRuns,
  judgeLabs,
  paperJudgeAddenda,
  papers,
  type JudgeLab,
  type Paper,
  type PaperJudgeAddendum,
  type SubmissionVariant,
} from "../schema";

/** The judge lab's reads and writes: labelled submissions, labs and their runs, overrides, addendum versions. */

export interface LabSubmissionRow {
  submissionId: string;
  paperId: string;
  paperTitle: string;
  agentName: string;
  runIndex: number;
  variant: SubmissionVariant;
  truthGradingId: string;
  truth: "human_grading" | "review";
}

/**
 * The submissions with a human truth: the latest human grading, else the (non-lab) judge grading
 * a review covered last. Only papers in `paperIds` when given; by paper, agent, variant and run.
 */
export async function listLabSubmissionRows(
  db: Executor,
  opts: { paperIds?: readonly string[] } = {},
): Promise<LabSubmissionRow[]> {
  if (opts.paperIds && opts.paperIds.length === 0) return [];
  const result = await db.execute(sql`
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
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    submissionId: String(r.id),
    paperId: String(r.paper_id),
    paperTitle: String(r.title),
    agentName: String(r.agent_name),
    runIndex: Number(r.run_index),
    variant: r.variant as SubmissionVariant,
    truthGradingId: String(r.truth_id),
    truth: r.is_human ? "human_grading" : "review",
  }));
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

/** Every lab, newest first, with its run count, runs not ended yet and papers. */
export async function listJudgeLabRows(db: Executor): Promise<JudgeLabListRow[]> {
  const result = await db.execute(sql`
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
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    id: String(r.id),
    name: String(r.name),
    createdAt: new Date(String(r.created_at)),
    runs: Number(r.runs),
    pending: Number(r.pending),
    paperIds: (typeof r.paper_ids === "string" ? JSON.parse(r.paper_ids) : r.paper_ids) as string[],
  }));
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
  variant: SubmissionVariant;
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
  const result = await db.execute(sql`
    SELECT lr.judge_run_id, lr.lab_id, jr.grading_id, jr.submission_id, lr.paper_id, a.name AS agent_name, s.run_index,
      lr.config_id, lr.config_name, lr.truth_grading_id, lr.addendum_version, lr.judge_addendum, jr.variant, j.status AS job_status,
      jr.leaves_done, jr.leaves_total, jr.cost_usd, jr.started_at, jr.finished_at
    FROM judge_lab_runs lr
    JOIN judge_runs jr ON jr.id = lr.judge_run_id
    JOIN submissions s ON s.id = jr.submission_id
    JOIN agents a ON a.id = s.agent_id
    LEFT JOIN jobs j ON j.id = jr.job_id
    WHERE ${"labId" in where ? sql`lr.lab_id = ${where.labId}` : sql`lr.paper_id = ${where.paperId}`}
    ORDER BY jr.created_at, lr.config_name, s.paper_id, a.name, s.run_index
  `);
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(String(v)));
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    judgeRunId: String(r.judge_run_id),
    labId: String(r.lab_id),
    gradingId: String(r.grading_id),
    submissionId: String(r.submission_id),
    paperId: String(r.paper_id),
    agentName: String(r.agent_name),
    runIndex: Number(r.run_index),
    configId: (r.config_id as string | null) ?? null,
    configName: String(r.config_name),
    truthGradingId: String(r.truth_grading_id),
    addendumVersion: r.addendum_version === null ? null : Number(r.addendum_version),
    judgeAddendum: String(r.judge_addendum),
    variant: r.variant as SubmissionVariant,
    jobStatus: (r.job_status as JobStatus | null) ?? null,
    leavesDone: Number(r.leaves_done),
    leavesTotal: Number(r.leaves_total),
    costUsd: Number(r.cost_usd),
    startedAt: date(r.started_at),
    finishedAt: date(r.finished_at),
  }));
}

export interface JudgeOverrideRow {
  id: string;
  gradingId: string;
  rubricVersionId: string;
  rubricView: SubmissionVariant;
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
  const result = await db.execute(sql`
    SELECT o.id, o.grading_id, g.rubric_version_id, g.rubric_view, s.id AS submission_id, a.name AS agent_name, s.run_index,
      o.node_key, v.node_id, v.score AS judge_score, o.new_score, o.reason, coalesce(u.name, u.email) AS user_name, o.created_at
    FROM grading_overrides o
    JOIN gradings g ON g.id = o.grading_id
    JOIN grading_verdicts v ON v.grading_id = o.grading_id AND v.node_key = o.node_key
    JOIN submissions s ON s.id = g.submission_id
    JOIN agents a ON a.id = s.agent_id
    LEFT JOIN users u ON u.id = o.user_id
    WHERE s.paper_id = ${paperId} AND g.kind = 'judge'
    ORDER BY o.seq
  `);
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    id: String(r.id),
    gradingId: String(r.grading_id),
    rubricVersionId: String(r.rubric_version_id),
    rubricView: r.rubric_view as SubmissionVariant,
    submissionId: String(r.submission_id),
    agentName: String(r.agent_name),
    runIndex: Number(r.run_index),
    nodeKey: String(r.node_key),
    nodeId: String(r.node_id),
    judgeScore: Number(r.judge_score),
    newScore: Number(r.new_score),
    reason: String(r.reason),
    userName: (r.user_name as string | null) ?? null,
    createdAt: new Date(String(r.created_at)),
  }));
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
