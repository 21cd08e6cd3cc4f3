import "server-only";
import type { Store } from "@/db/client";
import { ensureAgentByName, getAgentByName } from "@/db/queries/agents";
import { insertBlob } from "@/db/queries/blobs";
import { getEvaluationCell } from "@/db/queries/evaluation-cells";
import { setSubmissionEvaluationId } from "@/db/queries/evaluations";
import { getPaperById } from "@/db/queries/papers";
import {
  ensureSubmission,
  getSubmissionByRun,
  replaceSubmissionArchive,
  setSubmissionArchiveBlob,
  setSubmissionFlags,
} from "@/db/queries/submissions";
import type { Submission } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { Variant } from "@/lib/grading/variant";
import { getBlobStore } from "@/server/blobs/get-blob-store";
import { evaluationForRun } from "@/server/evaluations/evaluation-run";
import { startEvaluationCell } from "@/server/evaluations/pipeline/advance-cell";
import { enqueueReproduceJob } from "@/server/reproductions/enqueue-reproduce";
import { checkSubmissionArchive, type ArchiveLimits } from "./archive";
import { scanAgentLog } from "./scan-agent-log";
import { submissionLimits } from "./submission-limits";

/** Which run a submission is, and what to do with it. */
export interface SubmissionUploadFields {
  agent: string;
  run: number;
  variant: Variant;
  /** Queue a reproduction once it is stored (full variant only). */
  reproduce: boolean;
  /** Replace the archive the run already has (else 409). */
  replace: boolean;
  /** The evaluation this run belongs to (a harness uploading one submission at a time). */
  evaluation?: string;
}

export interface SubmissionUploadResult {
  submissionId: string;
  /** The reproduction queued, when one was asked for. */
  jobId?: string;
  /** Entries of the listing (files kept or not). */
  files: number;
  expandedBytes: number;
  /** The archive in the blob store. */
  sha256: string;
  replaced: boolean;
  /** Lines of the agent's log that name a blacklisted site (0 when it has none, absent when no log came). */
  blacklistHits?: number;
}

/**
 * What can be refused before the archive is read (so before a large body is received): a
 * reproduction of a Code-Dev run, or a run that already has an archive when the upload does not
 * say to replace it.
 */
export async function precheckSubmissionUpload(
  store: Store,
  input: SubmissionUploadFields & { paperId: string },
): Promise<void> {
  if (input.reproduce && input.variant === "code-dev") {
    throw new AppError(
      "bad_request",
      "A Code-Dev submission is never reproduced (PaperBench grades only its code): upload it without reproduce",
      [{ path: "reproduce", message: "must be off for the code-dev variant" }],
    );
  }
  if (input.evaluation)
    await evaluationForRun(store.db, input.evaluation, {
      paperId: input.paperId,
      agent: input.agent,
      runIndex: input.run,
      variant: input.variant,
    });
  const agent = await getAgentByName(store.db, input.agent);
  if (!agent) return;
  const existing = await getSubmissionByRun(store.db, {
    paperId: input.paperId,
    agentId: agent.id,
    runIndex: input.run,
    variant: input.variant,
  });
  if (existing && !input.replace) assertNoArchive(existing, input);
}

/**
 * Stores an uploaded submission: the archive at `archive.path` (a temporary file the caller owns
 * and removes) is checked entry by entry (a refusal names the entry, and nothing is stored), put in
 * the blob store, then the agent (created when new), the submission, its file listing and its
 * blob are written in one transaction, with what the blacklist monitor found in the agent's log
 * (`scan-agent-log.ts`). With `reproduce`, a reproduction is queued after it commits; in an
 * evaluation, its pipeline starts instead (`startEvaluationCell`: reproduction, judge, counting).
 */
export async function uploadSubmission(
  store: Store,
  input: SubmissionUploadFields & {
    paperId: string;
    userId: string | null;
    archive: { path: string; name: string; disposable?: boolean };
    /** PaperBench's `agent.log` sent beside the archive (else one inside it is used). */
    agentLog?: { path: string };
    limits?: ArchiveLimits;
  },
): Promise<SubmissionUploadResult> {
  await precheckSubmissionUpload(store, input);
  const { archive, expandedBytes } = await checkSubmissionArchive(
    input.archive.path,
    input.archive.name,
    input.limits ?? submissionLimits(),
  );
  // Before the archive may be moved into the blob store: the monitor streams the log from it.
  const paper = await getPaperById(store.db, input.paperId);
  const flags = await scanAgentLog({
    archivePath: input.archive.path,
    archive,
    agentLog: input.agentLog,
    blacklist: paper?.blacklist ?? [],
  });
  // The bytes are in the store before any row names them; a refusal below leaves only an unnamed file there.
  const blob = await getBlobStore().putFile(input.archive.path, { move: input.archive.disposable === true });
  const { submissionId, replaced } = await store.db.transaction(async (tx) => {
    const { agent } = await ensureAgentByName(tx, { name: input.agent });
    const { submission } = await ensureSubmission(tx, {
      paperId: input.paperId,
      agentId: agent.id,
      runIndex: input.run,
      variant: input.variant,
      userId: input.userId,
    });
    // Checked again here: another upload of this run may have landed since the precheck.
    if (!input.replace) assertNoArchive(submission, input);
    await insertBlob(tx, blob);
    await replaceSubmissionArchive(tx, submission.id, archive);
    await setSubmissionArchiveBlob(tx, submission.id, { sha256: blob.sha256, expandedBytes });
    await setSubmissionFlags(tx, submission.id, flags);
    if (input.evaluation) {
      await evaluationForRun(tx, input.evaluation, {
        paperId: input.paperId,
        agent: agent.name,
        runIndex: input.run,
        variant: input.variant,
      });
      await setSubmissionEvaluationId(tx, submission.id, input.evaluation);
    }
    return { submissionId: submission.id, replaced: hasArchive(submission) };
  });
  const result: SubmissionUploadResult = {
    submissionId,
    files: archive.files.length,
    expandedBytes,
    sha256: blob.sha256,
    replaced,
  };
  if (flags) result.blacklistHits = flags.blacklist.totalHits;
  if (input.evaluation) {
    // The evaluation's pipeline reproduces (full variant) and judges it; a replaced archive starts it again.
    await startEvaluationCell(store, {
      submissionId,
      evaluationId: input.evaluation,
      restart: replaced,
      userId: input.userId,
    });
    const cell = await getEvaluationCell(store.db, submissionId);
    if (cell?.jobId) result.jobId = cell.jobId;
  } else if (input.reproduce) {
    const { jobId } = await enqueueReproduceJob(store, { submissionId, paperId: input.paperId, userId: input.userId });
    result.jobId = jobId;
  }
  return result;
}

function hasArchive(submission: Submission): boolean {
  return submission.archiveSha256 !== null || submission.archiveName !== null;
}

function assertNoArchive(submission: Submission, input: SubmissionUploadFields): void {
  if (!hasArchive(submission)) return;
  throw new AppError(
    "conflict",
    `Run ${input.run} of ${input.agent} (${input.variant}) already has an archive (${submission.archiveName ?? submission.archiveSha256}); send replace to replace it`,
    [{ path: "replace", message: "must be set to replace the stored archive" }],
  );
}
