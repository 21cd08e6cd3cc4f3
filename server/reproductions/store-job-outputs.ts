import "server-only";
import type { Store } from "@/db/client";
import { listSubmissionFiles } from "@/db/queries/submissions";
import { storeBlob } from "@/server/blobs/store-blob";
import { readBodyToTempFile } from "@/server/http/body-file";
import { requireCurrentLease, recordJobOutputs, type JobLease } from "@/server/runners/job-lease";
import { reportJobProgress } from "@/server/jobs/job-lifecycle";
import { indexOutputsArchive } from "./outputs-index";

/** The largest outputs archive a runner may upload (OUTPUTS_MAX_BYTES; default 8 GiB). */
function maxOutputsBytes(): number {
  const n = Number(process.env.OUTPUTS_MAX_BYTES);
  return Number.isFinite(n) && n > 0 ? n : 8 * 1024 ** 3;
}

/**
 * Receives the executed submission (.tar.gz) under a current lease: streamed to disk, indexed
 * (each file, and whether reproduction changed it), stored in the blob store once per content,
 * and recorded on the job, fenced like every other write of the lease.
 */
export async function storeJobOutputs(
  store: Store,
  lease: JobLease,
  req: Request,
): Promise<{ sha256: string; files: number }> {
  const job = await requireCurrentLease(store, lease);
  const body = await readBodyToTempFile(req, maxOutputsBytes());
  try {
    const original = job.submissionId ? await listSubmissionFiles(store.db, job.submissionId) : [];
    const index = await indexOutputsArchive(body.path, originalSizes(original));
    const { sha256 } = await storeBlob(store, body.path, { move: true });
    await recordJobOutputs(store, lease, { sha256, index });
    await reportJobProgress(store, job);
    return { sha256, files: index.files.length };
  } finally {
    body.remove();
  }
}

/**
 * The submission's files and sizes as the runner sees them: it unpacks an archive whose only root
 * entry is a folder into that folder, so each path is also known without its first segment.
 */
function originalSizes(files: { path: string; size: number }[]): Map<string, number> {
  const sizes = new Map(files.map((f) => [f.path, f.size]));
  for (const f of files) {
    const slash = f.path.indexOf("/");
    if (slash > 0 && !sizes.has(f.path.slice(slash + 1))) sizes.set(f.path.slice(slash + 1), f.size);
  }
  return sizes;
}
