import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import type { SubmissionArchive, SubmissionArchiveFile } from "@/lib/submissions/archive";
import type { SubmissionFlags } from "@/lib/submissions/blacklist-monitor";
import type { Executor } from "../client";
import type { JobStatus } from "@/lib/jobs/states";
import {
  agents,
  jobs,
  judgeRuns,
  submissionFiles,
  submissions,
  type Submission,
  type SubmissionVariant,
} from "../schema";

export interface SubmissionRun {
  paperId: string;
  agentId: string;
  runIndex: number;
  variant: SubmissionVariant;
}

export async function getSubmissionById(db: Executor, id: string): Promise<Submission | null> {
  const [row] = await db.select().from(submissions).where(eq(submissions.id, id)).limit(1);
  return row ?? null;
}

export async function getSubmissionByRun(db: Executor, run: SubmissionRun): Promise<Submission | null> {
  const [row] = await db
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.paperId, run.paperId),
        eq(submissions.agentId, run.agentId),
        eq(submissions.variant, run.variant),
        eq(submissions.runIndex, run.runIndex),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The submission of this run, created when new. */
export async function ensureSubmission(
  db: Executor,
  run: SubmissionRun & { userId: string | null },
): Promise<{ submission: Submission; created: boolean }> {
  const [inserted] = await db
    .insert(submissions)
    .values({
      paperId: run.paperId,
      agentId: run.agentId,
      runIndex: run.runIndex,
      variant: run.variant,
      createdBy: run.userId,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { submission: inserted, created: true };
  const existing = await getSubmissionByRun(db, run);
  if (!existing) throw new Error("A submission vanished after insert");
  return { submission: existing, created: false };
}

export interface SubmissionListItem {
  id: string;
  paperId: string;
  agentId: string;
  agentName: string;
  runIndex: number;
  variant: SubmissionVariant;
  archiveName: string | null;
  archiveFileCount: number;
  hasReproduceLog: boolean;
  /** The repository in the blob store, when it was uploaded to be run. */
  archiveSha256: string | null;
  archiveExpandedBytes: number | null;
  /** The submission's latest reproduction job, if any. */
  latestJobId: string | null;
  latestJobStatus: JobStatus | null;
  /** Its latest judge run, with its job's status (null once the job is gone). */
  latestJudge: {
    runId: string;
    gradingId: string;
    jobStatus: JobStatus | null;
    leavesDone: number;
    leavesTotal: number;
    leavesInvalid: number;
  } | null;
  createdAt: Date;
}

export async function listSubmissionsByPaperId(db: Executor, paperId: string): Promise<SubmissionListItem[]> {
  return db
    .select({
      id: submissions.id,
      paperId: submissions.paperId,
      agentId: submissions.agentId,
      agentName: agents.name,
      runIndex: submissions.runIndex,
      variant: submissions.variant,
      archiveName: submissions.archiveName,
      archiveFileCount: submissions.archiveFileCount,
      hasReproduceLog: sql<boolean>`${submissions.reproduceLog} IS NOT NULL`,
      archiveSha256: submissions.archiveSha256,
      archiveExpandedBytes: submissions.archiveExpandedBytes,
      latestJobId: sql<string | null>`latest_job.id`,
      latestJobStatus: sql<JobStatus | null>`latest_job.status`,
      latestJudge: sql<SubmissionListItem["latestJudge"]>`latest_judge.run`,
      createdAt: submissions.createdAt,
    })
    .from(submissions)
    .innerJoin(agents, eq(agents.id, submissions.agentId))
    .leftJoin(
      sql`LATERAL (SELECT ${jobs.id} AS id, ${jobs.status} AS status FROM ${jobs} WHERE ${jobs.submissionId} = ${submissions.id} AND ${jobs.kind} = 'reproduce' ORDER BY ${jobs.createdAt} DESC LIMIT 1) AS latest_job`,
      sql`true`,
    )
    .leftJoin(
      sql`LATERAL (SELECT json_build_object(
          'runId', ${judgeRuns.id}, 'gradingId', ${judgeRuns.gradingId}, 'jobStatus', judge_job.status,
          'leavesDone', ${judgeRuns.leavesDone}, 'leavesTotal', ${judgeRuns.leavesTotal}, 'leavesInvalid', ${judgeRuns.leavesInvalid}
        ) AS run
        FROM ${judgeRuns} LEFT JOIN ${jobs} AS judge_job ON judge_job.id = ${judgeRuns.jobId}
        WHERE ${judgeRuns.submissionId} = ${submissions.id} ORDER BY ${judgeRuns.createdAt} DESC LIMIT 1) AS latest_judge`,
      sql`true`,
    )
    .where(eq(submissions.paperId, paperId))
    .orderBy(asc(agents.name), asc(submissions.variant), asc(submissions.runIndex));
}

/** Names the submission's repository in the blob store (the archive as uploaded) and its expanded size. */
export async function setSubmissionArchiveBlob(
  db: Executor,
  submissionId: string,
  blob: { sha256: string; expandedBytes: number },
): Promise<void> {
  await db
    .update(submissions)
    .set({ archiveSha256: blob.sha256, archiveExpandedBytes: blob.expandedBytes })
    .where(eq(submissions.id, submissionId));
}

/** What the monitors found in the submission's agent log; null when it came without one. */
export async function setSubmissionFlags(
  db: Executor,
  submissionId: string,
  flags: SubmissionFlags | null,
): Promise<void> {
  await db.update(submissions).set({ flags }).where(eq(submissions.id, submissionId));
}

// Files travel to the database as JSON batches of about this many bytes of content.
const FILE_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Stores a submitted repository (replacing any archive stored before) and its reproduce.log
 * (kept when the new archive has none).
 */
export async function replaceSubmissionArchive(
  db: Executor,
  submissionId: string,
  archive: SubmissionArchive,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(submissionFiles).where(eq(submissionFiles.submissionId, submissionId));
    await insertSubmissionFiles(tx, submissionId, archive.files);
    await tx
      .update(submissions)
      .set({
        archiveName: archive.name,
        archiveFileCount: archive.files.length,
        archiveBytes: archive.totalBytes,
        archiveNotes: archive.notes,
        ...(archive.reproduceLog !== null ? { reproduceLog: archive.reproduceLog } : {}),
      })
      .where(eq(submissions.id, submissionId));
  });
}

async function insertSubmissionFiles(
  tx: Executor,
  submissionId: string,
  files: readonly SubmissionArchiveFile[],
): Promise<void> {
  let batch: SubmissionArchiveFile[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const payload = JSON.stringify(
      batch.map((f) => ({ path: f.path, size: f.size, content: f.content, skipped: f.skipped })),
    );
    await tx.execute(sql`
      INSERT INTO submission_files (submission_id, path, size, content, skipped)
      SELECT ${submissionId}::uuid, x.path, x.size, x.content, x.skipped
      FROM jsonb_to_recordset(${payload}::jsonb) AS x(path text, size int, content text, skipped text)
    `);
    batch = [];
    bytes = 0;
  };
  for (const f of files) {
    batch.push(f);
    bytes += (f.content?.length ?? 0) + f.path.length + 64;
    if (bytes >= FILE_BATCH_BYTES) await flush();
  }
  await flush();
}

export interface SubmissionFileItem {
  path: string;
  size: number;
  /** Why the content was not kept (binary, too large), or null when it was. */
  skipped: string | null;
}

/** The listing of a submitted repository, without contents, by path. */
export async function listSubmissionFiles(db: Executor, submissionId: string): Promise<SubmissionFileItem[]> {
  return db
    .select({ path: submissionFiles.path, size: submissionFiles.size, skipped: submissionFiles.skipped })
    .from(submissionFiles)
    .where(eq(submissionFiles.submissionId, submissionId))
    .orderBy(sql`${submissionFiles.path} COLLATE "C"`);
}

export async function getSubmissionFileContent(
  db: Executor,
  submissionId: string,
  filePath: string,
): Promise<SubmissionFileItem & { content: string | null }> {
  const [row] = await db
    .select({
      path: submissionFiles.path,
      size: submissionFiles.size,
      skipped: submissionFiles.skipped,
      content: submissionFiles.content,
    })
    .from(submissionFiles)
    .where(and(eq(submissionFiles.submissionId, submissionId), eq(submissionFiles.path, filePath)))
    .limit(1);
  if (!row) throw new AppError("not_found", `The submission has no file ${filePath}`);
  return row;
}

export async function getSubmissionReproduceLog(db: Executor, submissionId: string): Promise<string | null> {
  const [row] = await db
    .select({ log: submissions.reproduceLog })
    .from(submissions)
    .where(eq(submissions.id, submissionId))
    .limit(1);
  if (!row) throw new AppError("not_found", "No such submission");
  return row.log;
}
