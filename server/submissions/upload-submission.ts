import "server-only";
import type { Executor, Store } from "@/db/client";
import { ensureAgentByName, getAgentByName } from "@/db/queries/agents";
import { insertBlob } from "@/db/queries/blobs";
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
import { enqueueReproduceJob } from "@/server/submissions/enqueue-reproduce";
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
}

/** The run an upload stores, as a workflow checks it. */
export interface UploadedRun {
  paperId: string;
  agent: string;
  runIndex: number;
  variant: Variant;
}

/**
 * A workflow that owns the uploaded run (an evaluation's: `evaluationUpload` in
 * server/evaluations/evaluation-upload.ts), handed in by its caller so that submissions know no
 * workflow. It checks the run before the archive is read and again inside the transaction (the
 * workflow may have changed since), links the stored submission in that transaction, and once it
 * has committed starts what follows in place of a plain reproduction, answering the job it queued.
 */
export interface SubmissionUploadWorkflow {
  check(db: Executor, run: UploadedRun): Promise<void>;
  link(tx: Executor, submissionId: string): Promise<void>;
  start(
    store: Store,
    upload: { submissionId: string; replaced: boolean; userId: string | null },
  ): Promise<{ jobId?: string }>;
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
  workflow?: SubmissionUploadWorkflow,
): Promise<void> {
  if (input.reproduce && input.variant === "code-dev") {
    throw new AppError(
      "bad_request",
      "A Code-Dev submission is never reproduced (PaperBench grades only its code): upload it without reproduce",
      [{ path: "reproduce", message: "must be off for the code-dev variant" }],
    );
  }
  await workflow?.check(store.db, {
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
 * (`scan-agent-log.ts`). With `reproduce`, a reproduction is queued after it commits; with a
 * `workflow` (an evaluation's), the workflow starts instead (its pipeline: reproduction, judge, counting).
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
  workflow?: SubmissionUploadWorkflow,
): Promise<SubmissionUploadResult> {
  await precheckSubmissionUpload(store, input, workflow);
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
    if (workflow) {
      await workflow.check(tx, {
        paperId: input.paperId,
        agent: agent.name,
        runIndex: input.run,
        variant: input.variant,
      });
      await workflow.link(tx, submission.id);
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
  if (workflow) {
    const { jobId } = await workflow.start(store, { submissionId, replaced, userId: input.userId });
    if (jobId) result.jobId = jobId;
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
