import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import type { Store } from "@/db/client";
import { getSubmissionById } from "@/db/queries/submissions";
import { listJobsBySubmissionId } from "@/db/queries/jobs";
import type { Submission } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { normalizeEntryPath } from "@/lib/files/entry-path";
import { latestJudgeableReproduction } from "@/lib/jobs/judge-source";
import type { Variant } from "@/lib/grading/variant";
import type { SubmissionDirEntry, SubmissionFileInfo, SubmissionFiles } from "@/lib/judge/engine-contract";
import { bytesNeededFor } from "@/lib/judge/paperbench/python-text";
import { PB_READ_CHARS } from "@/lib/judge/paperbench/simple-judge";
import { openBlob } from "@/server/blobs/store-blob";
import { extensionOf, isCandidateExtension } from "@/lib/judge/engine/file-selection";
import { HEAD_BYTES, judgeFileText, judgeLogText } from "@/lib/judge/engine/judge-file-text";
import { ARCHIVE_LIMITS, readSubmissionArchive } from "@/server/submissions/archive";

/** Bytes of reproduce.log kept: its head and its tail (final metrics are printed last), half each. */
const MAX_LOG_BYTES = 16 * 1024 * 1024;
const SKIPPED_DIRS = new Set([".git"]);

/** What a judge run reads: the executed outputs of the latest reproduction that ran (full), or the submitted archive (Code-Dev). */
export type JudgeSource = { kind: "outputs"; sha256: string; jobId: string } | { kind: "archive"; sha256: string };

/**
 * Which bytes a run of `variant` grades, or a 409 saying what is missing: the full variant reads
 * what reproduction left (`reproduce.log`, the results it wrote), so it needs a reproduction that
 * ran: the latest one that executed the submission, however it ended (`lib/jobs/judge-source.ts`).
 */
export async function judgeSourceOf(store: Store, submission: Submission, variant: Variant): Promise<JudgeSource> {
  if (variant === "full") {
    const job = latestJudgeableReproduction(await listJobsBySubmissionId(store.db, submission.id));
    if (!job) {
      throw new AppError(
        "conflict",
        "The full variant grades the reproduction's outputs: reproduce this submission first (or judge it Code-Dev)",
        [{ path: "variant", message: "needs a reproduction that ran" }],
      );
    }
    return { kind: "outputs", sha256: job.outputsSha256!, jobId: job.id };
  }
  if (!submission.archiveSha256) {
    throw new AppError("conflict", "This submission has no stored archive to judge (it was imported without one)", [
      { path: "submissionIds", message: "no archive" },
    ]);
  }
  return { kind: "archive", sha256: submission.archiveSha256 };
}

/** The submission's files as the engine reads them, loaded into memory once per run. */
export async function loadJudgeSubmission(source: JudgeSource): Promise<SubmissionFiles> {
  return source.kind === "outputs"
    ? readOutputsArchive(await openBlob(source.sha256))
    : readSubmittedArchive(source.sha256);
}

export async function loadJudgeSubmissionOf(
  store: Store,
  submissionId: string,
  variant: Variant,
): Promise<SubmissionFiles> {
  const submission = await getSubmissionById(store.db, submissionId);
  if (!submission) throw new AppError("not_found", "No such submission");
  return loadJudgeSubmission(await judgeSourceOf(store, submission, variant));
}

interface HeldFile extends SubmissionFileInfo {
  /** The text, decoded when first read (most files never are). */
  text: string | null | (() => string | null);
  /** The first bytes paperbench mode reads (PaperBench's 200k characters' worth). */
  head: Uint8Array;
}

/** Bytes kept of each file for paperbench mode's reads. */
const PB_HEAD_BYTES = bytesNeededFor(PB_READ_CHARS);

/**
 * os.walk's view of an archive's files: folders in the order their first entry comes (an
 * archive has no listing order of its own; PaperBench walks the extracted folder, whose order the
 * file system decides), each folder's files in entry order.
 */
export function walkOfPaths(files: readonly { path: string; mtimeMs: number | null }[]): SubmissionDirEntry[] {
  const dirs = new Map<string, SubmissionDirEntry>([["", { dir: "", dirs: [], files: [] }]]);
  const ensure = (dir: string): SubmissionDirEntry => {
    let entry = dirs.get(dir);
    if (entry) return entry;
    entry = { dir, dirs: [], files: [] };
    dirs.set(dir, entry);
    const cut = dir.lastIndexOf("/");
    ensure(cut === -1 ? "" : dir.slice(0, cut)).dirs.push(cut === -1 ? dir : dir.slice(cut + 1));
    return entry;
  };
  for (const f of files) {
    const cut = f.path.lastIndexOf("/");
    ensure(cut === -1 ? "" : f.path.slice(0, cut)).files.push({
      name: f.path.slice(cut + 1),
      mtime: f.mtimeMs === null ? Number.NaN : f.mtimeMs / 1000,
    });
  }
  // Pre-order, as os.walk yields them.
  const out: SubmissionDirEntry[] = [];
  const visit = (dir: string) => {
    const entry = dirs.get(dir)!;
    out.push(entry);
    for (const d of entry.dirs) visit(dir ? `${dir}/${d}` : d);
  };
  visit("");
  return out;
}

function filesOf(held: HeldFile[]): SubmissionFiles {
  const byPath = new Map(held.map((f) => [f.path, f]));
  const list = held.map(({ path: p, size, mtimeMs }) => ({ path: p, size, mtimeMs }));
  return {
    list: async () => list,
    read: async (p) => {
      const file = byPath.get(p);
      if (!file) return null;
      if (typeof file.text === "function") file.text = file.text();
      return file.text;
    },
    walk: async () => walkOfPaths(list),
    readHead: async (p, maxBytes) => {
      const f = byPath.get(p);
      return f
        ? { bytes: f.head.subarray(0, maxBytes), mtime: f.mtimeMs === null ? Number.NaN : f.mtimeMs / 1000 }
        : null;
    },
  };
}

/**
 * A submitted archive read with the upload's checks, keeping the first bytes of every file a
 * criterion may read that is not kept as text (over 1 MiB, not UTF-8), so the judge reads it as
 * the CLI does.
 */
export function submittedArchiveFiles(file: string) {
  return readSubmissionArchive({ path: file }, ARCHIVE_LIMITS, {
    bytes: HEAD_BYTES,
    wanted: (p) => isCandidateExtension(extensionOf(p)),
  });
}

/** A submitted archive (.tar.gz, .tar or .zip), read with the upload's checks; its dates do not matter to Code-Dev. */
async function readSubmittedArchive(sha256: string): Promise<SubmissionFiles> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "rs-judge-"));
  try {
    const file = path.join(dir, "submission");
    await pipeline(await openBlob(sha256), fs.createWriteStream(file));
    const archive = await submittedArchiveFiles(file);
    // Text files are kept as text: paperbench mode reads their bytes again from it; other files a criterion may read keep their first bytes.
    const headOf = (text: string | null) =>
      text === null ? new Uint8Array() : Buffer.from(text, "utf8").subarray(0, PB_HEAD_BYTES);
    const held: HeldFile[] = archive.files.map((f) => ({
      path: f.path,
      size: f.size,
      mtimeMs: null,
      text: f.content ?? (f.head ? () => judgeFileText(f.head!, f.size) : null),
      head: f.head ? f.head.subarray(0, PB_HEAD_BYTES) : headOf(f.content),
    }));
    if (archive.reproduceLog !== null)
      held.push({
        path: "reproduce.log",
        size: Buffer.byteLength(archive.reproduceLog),
        mtimeMs: null,
        text: archive.reproduceLog,
        head: headOf(archive.reproduceLog),
      });
    return filesOf(held);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/**
 * The outputs archive the runner packed (.tar.gz of the executed submission), streamed: each
 * file with its date (what reproduction wrote is newer than `reproduce.log.creation_time`), its
 * text by the CLI's rule (lib/judge/engine/judge-file-text.ts: whole, or PaperBench's first
 * 200,000 characters of a large or non-UTF-8 file), reproduce.log's head and tail. Unsafe names and
 * `.git` are left out; the whole is bounded by the upload's expansion limit.
 */
export async function readOutputsArchive(stream: Readable): Promise<SubmissionFiles> {
  const held: HeldFile[] = [];
  let expanded = 0;
  const extract = tar.extract();
  const done = pipeline(stream, createGunzip(), extract);
  done.catch(() => {});
  for await (const entry of extract) {
    const { header } = entry;
    const name = header.type === "file" || header.type === "contiguous-file" ? normalizeEntryPath(header.name) : null;
    const keep =
      name === null || name.split("/").some((s) => SKIPPED_DIRS.has(s))
        ? null
        : new KeptBytes(name === "reproduce.log" ? MAX_LOG_BYTES : HEAD_BYTES, name === "reproduce.log");
    for await (const chunk of entry as AsyncIterable<Buffer>) {
      expanded += chunk.length;
      if (expanded > ARCHIVE_LIMITS.maxExpandedBytes)
        throw new AppError("payload_too_large", "The reproduction's outputs expand past the archive limit");
      keep?.push(chunk);
    }
    if (!keep || name === null) continue;
    held.push({
      path: name,
      size: keep.size,
      mtimeMs: header.mtime ? header.mtime.getTime() : null,
      text: () => keep.text(),
      head: keep.first(),
    });
  }
  await done;
  return filesOf(held);
}

/** A file's bytes as it streams: all of it up to `max`, else its head (`max` bytes) and, for the log, its tail (`max / 2` each). */
class KeptBytes {
  size = 0;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;

  constructor(
    private readonly max: number,
    private readonly log: boolean,
  ) {}

  /** The file's first bytes (paperbench mode reads at most PB_HEAD_BYTES of any file; the head kept is at least that). */
  first(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.head).subarray(0, PB_HEAD_BYTES));
  }

  push(chunk: Buffer): void {
    this.size += chunk.length;
    const headMax = this.log ? this.max / 2 : this.max;
    if (this.headBytes < headMax) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      return;
    }
    if (!this.log) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.max / 2)
      this.tailBytes -= this.tail.shift()!.length;
  }

  /** The text: a file by the judge's rule, the log whole or with its middle cut. */
  text(): string {
    if (!this.log) return judgeFileText(Buffer.concat(this.head), this.size);
    if (this.size <= this.max) return judgeLogText(Buffer.concat([...this.head, ...this.tail]));
    const left = this.size - this.headBytes - this.tailBytes;
    return `${judgeLogText(Buffer.concat(this.head))}\n[… ${left} bytes of the log left out …]\n${judgeLogText(Buffer.concat(this.tail))}`;
  }
}
