import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import * as yauzl from "yauzl";
import { formatBytes } from "@/server/http/body";
import { AppError } from "@/lib/errors";
import { replaceNul } from "@/lib/text";
import type { SubmissionArchive, SubmissionArchiveFile } from "@/lib/submissions/archive";

export type { SubmissionArchive, SubmissionArchiveFile };

/**
 * Reading a submitted repository (a .tar.gz, .tar, .zip or a directory) into rows a review page can
 * browse. Every entry is streamed and checked; nothing is ever extracted to disk. Text files are
 * kept up to a size limit; binaries, oversized files, links and unsafe paths are listed with the
 * reason they were not kept.
 */
export const ARCHIVE_LIMITS = {
  /** The uploaded archive itself. */
  maxArchiveBytes: 200 * 1024 * 1024,
  /** One kept text file. */
  maxFileBytes: 1024 * 1024,
  /** All kept text together. */
  maxTotalBytes: 50 * 1024 * 1024,
  /** reproduce.log: its last part is kept when it is longer. */
  maxLogBytes: 5 * 1024 * 1024,
  /** Entries read before the archive is refused. */
  maxEntries: 50_000,
  /** Bytes decompressed before the archive is refused (a decompression bomb). */
  maxExpandedBytes: 1024 * 1024 * 1024,
} as const;
export type ArchiveLimits = { readonly [K in keyof typeof ARCHIVE_LIMITS]: number };

/** What an import tells of a stored archive: its entries, the text files kept, whether it had a reproduce.log, and what was changed or left out. */
export function archiveSummary(archive: SubmissionArchive) {
  return {
    files: archive.files.length,
    kept: archive.files.filter((f) => f.content !== null).length,
    hasReproduceLog: archive.reproduceLog !== null,
    notes: archive.notes,
  };
}
export type ArchiveSummary = ReturnType<typeof archiveSummary>;

export type ArchiveSource = { path: string } | { name: string; data: Buffer };

const LOG_NAME = "reproduce.log";

/** Reads a submission from a path (archive file or directory) or from uploaded bytes. */
export async function readSubmissionArchive(
  source: ArchiveSource,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<SubmissionArchive> {
  if ("path" in source) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(source.path);
    } catch {
      throw new AppError("bad_request", `No such file or directory: ${source.path}`, [{ path: "submission", message: "does not exist" }]);
    }
    const name = path.basename(path.resolve(source.path));
    const collector = new Collector(name, limits);
    if (stat.isDirectory()) {
      await readDirectory(source.path, collector);
      return collector.finish();
    }
    if (stat.size > limits.maxArchiveBytes) throw archiveTooLarge(stat.size, limits);
    return readArchiveBytes(name, fs.readFileSync(source.path), limits);
  }
  if (source.data.byteLength > limits.maxArchiveBytes) throw archiveTooLarge(source.data.byteLength, limits);
  return readArchiveBytes(source.name, source.data, limits);
}

async function readArchiveBytes(name: string, data: Buffer, limits: ArchiveLimits): Promise<SubmissionArchive> {
  const collector = new Collector(name, limits);
  const isGzip = data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
  const isZip = data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b && (data[2] === 0x03 || data[2] === 0x05);
  const isTar = data.length >= 262 && data.toString("latin1", 257, 262) === "ustar";
  try {
    if (isZip) await readZip(data, collector);
    else if (isGzip || isTar) await readTar(data, isGzip, collector);
    else throw new AppError("bad_request", `${name} is not a .tar.gz, .tar or .zip archive`, [{ path: "submission", message: "unknown archive format" }]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("bad_request", `${name} could not be read: ${(err as Error).message}`, [
      { path: "submission", message: (err as Error).message },
    ]);
  }
  return collector.finish();
}

function archiveTooLarge(size: number, limits: ArchiveLimits): AppError {
  return new AppError("payload_too_large", `The submission archive is ${formatBytes(size)}; the limit is ${formatBytes(limits.maxArchiveBytes)}`, [
    { path: "submission", message: `must be at most ${formatBytes(limits.maxArchiveBytes)}` },
  ]);
}

/** How much of an entry to keep: everything up to `max` bytes, or only its last `max` bytes. */
type Keep = { max: number; tail: boolean };

/** Collects entries from any source, applying the limits in one place. */
class Collector {
  private readonly files: (SubmissionArchiveFile & { log?: string })[] = [];
  private readonly notes: { path: string; reason: string }[] = [];
  private readonly seen = new Set<string>();
  private storedBytes = 0;
  private expandedBytes = 0;
  private entries = 0;
  private gitEntries = 0;

  constructor(
    private readonly name: string,
    readonly limits: ArchiveLimits,
  ) {}

  /** Counts decompressed bytes of the whole archive, refusing a decompression bomb. */
  countExpanded(n: number): void {
    this.expandedBytes += n;
    if (this.expandedBytes > this.limits.maxExpandedBytes) {
      throw new AppError("payload_too_large", `${this.name} expands to more than ${formatBytes(this.limits.maxExpandedBytes)}`, [
        { path: "submission", message: "expands past the limit" },
      ]);
    }
  }

  /**
   * Decides about one entry. Returns how much of it to read, or null to skip it (the caller still
   * drains a skipped stream).
   */
  accept(rawPath: string, kind: "file" | "directory" | "link" | "other", size: number): { path: string; keep: Keep } | null {
    if (++this.entries > this.limits.maxEntries) {
      throw new AppError("payload_too_large", `${this.name} has more than ${this.limits.maxEntries} entries`, [
        { path: "submission", message: `must have at most ${this.limits.maxEntries} entries` },
      ]);
    }
    if (kind === "directory") return null;
    const safe = normalizeEntryPath(rawPath);
    if (!safe) {
      this.notes.push({ path: replaceNul(rawPath).text, reason: "unsafe path (absolute, with .. or a NUL), not kept" });
      return null;
    }
    if (safe.split("/").includes(".git")) {
      this.skipGitDirectory();
      return null;
    }
    if (kind !== "file") {
      this.notes.push({ path: safe, reason: kind === "link" ? "link, not followed" : "not a regular file" });
      return null;
    }
    if (this.seen.has(safe)) {
      this.notes.push({ path: safe, reason: "listed twice in the archive; the first copy is kept" });
      return null;
    }
    this.seen.add(safe);
    if (path.posix.basename(safe) === LOG_NAME) return { path: safe, keep: { max: this.limits.maxLogBytes, tail: true } };
    if (size > this.limits.maxFileBytes) {
      this.files.push({ path: safe, size, content: null, skipped: `larger than ${formatBytes(this.limits.maxFileBytes)}` });
      return null;
    }
    return { path: safe, keep: { max: this.limits.maxFileBytes, tail: false } };
  }

  /** Records a file read by `accept`'s answer; `data` is what was kept, `size` its full size. */
  add(filePath: string, size: number, data: Buffer): void {
    if (path.posix.basename(filePath) === LOG_NAME) {
      // Decided in finish(): the root log becomes the submission's log, any other one a file.
      this.files.push({ path: filePath, size, content: null, skipped: null, log: this.logText(filePath, data) });
      return;
    }
    const text = decodeText(data);
    if (size > this.limits.maxFileBytes) {
      this.files.push(this.tooLarge(filePath, size));
    } else if (text === null) {
      this.files.push({ path: filePath, size, content: null, skipped: "binary" });
    } else {
      this.files.push(this.store(filePath, size, text));
    }
  }

  /**
   * A log is kept whatever it holds: UTF-8 (else Latin-1), with any NUL (which the database cannot
   * store, and a crashed program may well write) replaced by U+FFFD and reported in the notes.
   */
  private logText(filePath: string, data: Buffer): string {
    let text: string;
    try {
      text = utf8.decode(data);
    } catch {
      text = data.toString("latin1");
    }
    const cleaned = replaceNul(text);
    if (cleaned.replaced > 0) {
      const what = cleaned.replaced === 1 ? "1 NUL character" : `${cleaned.replaced} NUL characters`;
      this.notes.push({ path: filePath, reason: `kept with ${what} (U+0000) replaced by U+FFFD` });
    }
    return cleaned.text;
  }

  /** A `.git` directory: its entries are not kept, only counted. */
  skipGitDirectory(): void {
    this.gitEntries++;
  }

  private tooLarge(filePath: string, size: number): SubmissionArchiveFile {
    return { path: filePath, size, content: null, skipped: `larger than ${formatBytes(this.limits.maxFileBytes)}` };
  }

  private store(filePath: string, size: number, text: string): SubmissionArchiveFile {
    const bytes = Buffer.byteLength(text);
    if (this.storedBytes + bytes > this.limits.maxTotalBytes) {
      return { path: filePath, size, content: null, skipped: `over the ${formatBytes(this.limits.maxTotalBytes)} kept in all` };
    }
    this.storedBytes += bytes;
    return { path: filePath, size, content: text, skipped: null };
  }

  finish(): SubmissionArchive {
    // An archive of one folder (`submission/...`): paths are shown relative to that folder.
    const prefix = commonTopFolder(this.files.map((f) => f.path));
    const strip = (p: string) => (prefix && p.startsWith(`${prefix}/`) ? p.slice(prefix.length + 1) : p);
    let reproduceLog: string | null = null;
    const files: SubmissionArchiveFile[] = [];
    for (const f of this.files) {
      const rel = strip(f.path);
      if (f.log === undefined) files.push({ path: rel, size: f.size, content: f.content, skipped: f.skipped });
      else if (rel === LOG_NAME) reproduceLog = f.log;
      // A log deeper in the tree is an ordinary text file.
      else if (f.size > this.limits.maxFileBytes) files.push(this.tooLarge(rel, f.size));
      else files.push(this.store(rel, f.size, f.log));
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const notes = this.notes.map((n) => ({ ...n, path: strip(n.path) }));
    if (this.gitEntries > 0) notes.push({ path: ".git/", reason: "git metadata, not kept" });
    return { name: this.name, files, reproduceLog, notes, totalBytes: files.reduce((sum, f) => sum + f.size, 0) };
  }
}

/** A relative POSIX path with no `.`/`..`/empty segments, or null when the entry is unsafe. */
export function normalizeEntryPath(raw: string): string | null {
  const p = raw.replace(/\\/g, "/");
  if (p.startsWith("/") || p.includes("\u0000") || /^[a-zA-Z]:/.test(p)) return null;
  const parts: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") return null;
    parts.push(seg);
  }
  return parts.length > 0 ? parts.join("/") : null;
}

function commonTopFolder(paths: readonly string[]): string | null {
  if (paths.length === 0) return null;
  const first = paths[0].split("/")[0];
  return paths.every((p) => p.startsWith(`${first}/`)) ? first : null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The text of a file, or null when it is binary (a NUL byte, or not UTF-8). */
export function decodeText(data: Buffer): string | null {
  if (data.includes(0)) return null;
  try {
    return utf8.decode(data);
  } catch {
    return null;
  }
}

/** Reads a stream, keeping at most `keep.max` bytes (its start, or its end for a log). */
async function readKept(stream: AsyncIterable<Buffer>, keep: Keep, collector: Collector): Promise<{ data: Buffer; size: number }> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let size = 0;
  for await (const chunk of stream) {
    collector.countExpanded(chunk.length);
    size += chunk.length;
    if (keep.tail) {
      chunks.push(chunk);
      kept += chunk.length;
      while (kept - chunks[0].length >= keep.max) kept -= chunks.shift()!.length;
    } else if (kept < keep.max + 1) {
      // One byte past the limit is enough to know the file is too large.
      chunks.push(chunk);
      kept += chunk.length;
    }
  }
  let data: Buffer = Buffer.concat(chunks);
  if (keep.tail && data.length > keep.max) data = dropPartialUtf8(data.subarray(data.length - keep.max));
  return { data, size };
}

/** Drops UTF-8 continuation bytes at the start of a cut buffer, so the text starts on a character. */
function dropPartialUtf8(data: Buffer): Buffer {
  let i = 0;
  while (i < data.length && i < 4 && (data[i] & 0xc0) === 0x80) i++;
  return data.subarray(i);
}

async function readTar(data: Buffer, gzip: boolean, collector: Collector): Promise<void> {
  const extract = tar.extract();
  const source = Readable.from([data]);
  const done = gzip ? pipeline(source, createGunzip(), extract) : pipeline(source, extract);
  // The loop below reports the same failure; keep this promise from being an unhandled rejection.
  done.catch(() => {});
  for await (const entry of extract) {
    const { header } = entry;
    const kind =
      header.type === "file" || header.type === "contiguous-file" || header.type == null
        ? "file"
        : header.type === "directory"
          ? "directory"
          : header.type === "symlink" || header.type === "link"
            ? "link"
            : "other";
    const decision = collector.accept(header.name, kind, header.size ?? 0);
    if (!decision) {
      for await (const chunk of entry) collector.countExpanded((chunk as Buffer).length);
      continue;
    }
    const { data: kept, size } = await readKept(entry as AsyncIterable<Buffer>, decision.keep, collector);
    collector.add(decision.path, size, kept);
  }
  await done;
}

async function readZip(data: Buffer, collector: Collector): Promise<void> {
  const zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  try {
    for await (const entry of zip.eachEntry()) {
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      const kind = entry.fileName.endsWith("/") || mode === 0o040000 ? "directory" : mode === 0o120000 ? "link" : "file";
      const decision = collector.accept(entry.fileName, kind, entry.uncompressedSize);
      if (!decision) continue;
      if (entry.isEncrypted()) {
        collector.add(decision.path, entry.uncompressedSize, Buffer.from([0]));
        continue;
      }
      const stream = await zip.openReadStreamPromise(entry);
      const { data: kept, size } = await readKept(stream, decision.keep, collector);
      collector.add(decision.path, size, kept);
    }
  } finally {
    zip.close();
  }
}

async function readDirectory(root: string, collector: Collector): Promise<void> {
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === ".git") {
          collector.skipGitDirectory();
          continue;
        }
        await walk(full, relPath);
        continue;
      }
      const kind = e.isFile() ? "file" : e.isSymbolicLink() ? "link" : "other";
      const size = kind === "file" ? fs.statSync(full).size : 0;
      const decision = collector.accept(relPath, kind, size);
      if (!decision) continue;
      const { data, size: read } = await readKept(fs.createReadStream(full), decision.keep, collector);
      collector.add(decision.path, read, data);
    }
  };
  await walk(root, "");
}
