import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import * as yauzl from "yauzl";
import { formatBytes } from "@/lib/bytes";
import { AppError } from "@/lib/errors";
import { checkEntryPath, entryRefusal, quoteEntry, type EntryKind } from "@/lib/files/entry-path";
import { replaceNul, storableText } from "@/lib/text";
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

/**
 * What an entry that is unsafe costs: `skip` lists it in the notes and reads on (an imported
 * PaperBench archive is graded whatever it holds); `refuse` refuses the whole archive with a 400
 * naming the entry (a submission that is going to be run). `field` is the request field the
 * archive came in, for the errors' details.
 */
export interface ArchivePolicy {
  unsafe: "skip" | "refuse";
  field: string;
}
const IMPORT_POLICY: ArchivePolicy = { unsafe: "skip", field: "submission" };

const LOG_NAME = "reproduce.log";

/**
 * For the judge: the first `bytes` bytes of each file `wanted` names that is not kept as text
 * (PaperBench reads such files too: lib/judge/engine/judge-file-text.ts).
 */
export interface ArchiveHeads {
  bytes: number;
  wanted(path: string): boolean;
}

/** Reads a submission from a path (archive file or directory) or from uploaded bytes; unsafe entries are skipped with a note. */
export async function readSubmissionArchive(
  source: ArchiveSource,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
  heads: ArchiveHeads | null = null,
): Promise<SubmissionArchive> {
  if ("path" in source) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(source.path);
    } catch {
      throw new AppError("bad_request", `No such file or directory: ${source.path}`, [
        { path: "submission", message: "does not exist" },
      ]);
    }
    const name = path.basename(path.resolve(source.path));
    const collector = new Collector(name, limits, IMPORT_POLICY, heads);
    if (stat.isDirectory()) {
      await readDirectory(source.path, collector);
      return collector.finish();
    }
    if (stat.size > limits.maxArchiveBytes) throw archiveTooLarge(stat.size, limits, IMPORT_POLICY.field);
    await readArchive(fileInput(source.path), collector);
    return collector.finish();
  }
  if (source.data.byteLength > limits.maxArchiveBytes)
    throw archiveTooLarge(source.data.byteLength, limits, IMPORT_POLICY.field);
  const collector = new Collector(source.name, limits, IMPORT_POLICY, heads);
  await readArchive(bufferInput(source.data), collector);
  return collector.finish();
}

/**
 * Checks a submission archive on disk (named `name`, as uploaded) entry by entry as it streams,
 * refusing the whole archive at the first unsafe entry (`..`, an absolute path, a link leaving the
 * tree, a device or fifo) or past a limit, with the entry named; on the way it collects the same
 * listing as `readSubmissionArchive`. Nothing is extracted.
 */
export async function checkSubmissionArchive(
  filePath: string,
  name: string,
  limits: ArchiveLimits,
  field = "archive",
): Promise<{ archive: SubmissionArchive; expandedBytes: number }> {
  const size = fs.statSync(filePath).size;
  if (size > limits.maxArchiveBytes) throw archiveTooLarge(size, limits, field);
  const collector = new Collector(name, limits, { unsafe: "refuse", field });
  await readArchive(fileInput(filePath), collector);
  return { archive: collector.finish(), expandedBytes: collector.expanded };
}

/** An archive to read: its first bytes (to tell the format) and its bytes as a stream or as a zip. */
interface ArchiveInput {
  head: Buffer;
  stream(): Readable;
  zip(options: yauzl.Options): Promise<yauzl.ZipFile>;
}

function bufferInput(data: Buffer): ArchiveInput {
  return {
    head: data.subarray(0, 512),
    stream: () => Readable.from([data]),
    zip: (options) => yauzl.fromBufferPromise(data, options),
  };
}

function fileInput(filePath: string): ArchiveInput {
  const head = Buffer.alloc(512);
  const fd = fs.openSync(filePath, "r");
  let read: number;
  try {
    read = fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  return {
    head: head.subarray(0, read),
    stream: () => fs.createReadStream(filePath),
    zip: (options) => yauzl.openPromise(filePath, options),
  };
}

async function readArchive(input: ArchiveInput, collector: Collector): Promise<void> {
  const { head } = input;
  const name = collector.name;
  const isGzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const isZip = head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05);
  const isTar = head.length >= 262 && head.toString("latin1", 257, 262) === "ustar";
  const field = collector.policy.field;
  try {
    if (isZip) await readZip(input, collector);
    else if (isGzip || isTar) await readTar(input, isGzip, collector);
    else
      throw new AppError("bad_request", `${name} is not a .tar.gz, .tar or .zip archive`, [
        { path: field, message: "unknown archive format" },
      ]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("bad_request", `${name} could not be read: ${(err as Error).message}`, [
      { path: field, message: (err as Error).message },
    ]);
  }
}

function archiveTooLarge(size: number, limits: ArchiveLimits, field: string): AppError {
  return new AppError(
    "payload_too_large",
    `The submission archive is ${formatBytes(size)}; the limit is ${formatBytes(limits.maxArchiveBytes)}`,
    [{ path: field, message: `must be at most ${formatBytes(limits.maxArchiveBytes)}` }],
  );
}

/** How much of an entry to keep: everything up to `max` bytes, or only its last `max` bytes. */
type Keep = { max: number; tail: boolean };

/** Collects entries from any source, applying the limits and the policy in one place. */
class Collector {
  private readonly files: (SubmissionArchiveFile & { log?: string })[] = [];
  private readonly notes: { path: string; reason: string }[] = [];
  private readonly seen = new Set<string>();
  private storedBytes = 0;
  private expandedBytes = 0;
  private entries = 0;
  private gitEntries = 0;
  /** The entry being read, named when a limit is passed while reading it. */
  private current = "";

  constructor(
    readonly name: string,
    readonly limits: ArchiveLimits,
    readonly policy: ArchivePolicy,
    readonly heads: ArchiveHeads | null = null,
  ) {}

  /** Bytes decompressed so far (every entry's content, kept or not). */
  get expanded(): number {
    return this.expandedBytes;
  }

  /** Counts decompressed bytes of the whole archive, refusing a decompression bomb. */
  countExpanded(n: number): void {
    this.expandedBytes += n;
    if (this.expandedBytes > this.limits.maxExpandedBytes) throw this.expandsTooFar();
  }

  private expandsTooFar(): AppError {
    return new AppError(
      "payload_too_large",
      `${this.name} expands to more than ${formatBytes(this.limits.maxExpandedBytes)} (at entry ${quoteEntry(this.current)})`,
      [{ path: this.policy.field, message: "expands past the limit", entry: this.current }],
    );
  }

  /**
   * Decides about one entry. Returns how much of it to read, or null to skip it (the caller still
   * drains a skipped stream). `size` is the size the archive declares for it.
   */
  accept(rawPath: string, entry: EntryKind, size: number): { path: string; keep: Keep } | null {
    this.current = rawPath;
    if (++this.entries > this.limits.maxEntries) {
      throw new AppError(
        "payload_too_large",
        `${this.name} has more than ${this.limits.maxEntries} entries (at entry ${quoteEntry(rawPath)})`,
        [{ path: this.policy.field, message: `must have at most ${this.limits.maxEntries} entries`, entry: rawPath }],
      );
    }
    // A declared size past the limit is refused before its bytes are read.
    if (this.expandedBytes + size > this.limits.maxExpandedBytes) throw this.expandsTooFar();
    if (this.policy.unsafe === "refuse") this.refuseUnsafe(rawPath, entry);
    if (entry.kind === "directory") return null;
    const checked = checkEntryPath(rawPath);
    if (!checked.ok) {
      // A refused name is kept in the note with what the database cannot store made U+FFFD.
      this.notes.push({ path: storableText(rawPath), reason: `unsafe path (${checked.reason}), not kept` });
      return null;
    }
    const safe = checked.path;
    if (safe.split("/").includes(".git")) {
      this.skipGitDirectory();
      return null;
    }
    if (entry.kind !== "file") {
      this.notes.push({ path: safe, reason: entry.kind === "other" ? "not a regular file" : "link, not followed" });
      return null;
    }
    if (this.seen.has(safe)) {
      this.notes.push({ path: safe, reason: "listed twice in the archive; the first copy is kept" });
      return null;
    }
    this.seen.add(safe);
    if (path.posix.basename(safe) === LOG_NAME)
      return { path: safe, keep: { max: this.limits.maxLogBytes, tail: true } };
    if (size > this.limits.maxFileBytes) {
      // Read for its head only (add() records it as too large).
      if (this.heads?.wanted(safe)) return { path: safe, keep: { max: this.heads.bytes, tail: false } };
      this.files.push({
        path: safe,
        size,
        content: null,
        skipped: `larger than ${formatBytes(this.limits.maxFileBytes)}`,
      });
      return null;
    }
    return { path: safe, keep: { max: Math.max(this.limits.maxFileBytes, this.heads?.bytes ?? 0), tail: false } };
  }

  /** Refuses (400, naming the entry) what a submission that is going to be run may not hold. */
  private refuseUnsafe(rawPath: string, entry: EntryKind): void {
    const why = entryRefusal(rawPath, entry);
    if (why === null) return;
    throw new AppError("bad_request", `${this.name} was refused: entry ${quoteEntry(rawPath)} ${why}`, [
      { path: this.policy.field, message: `entry ${quoteEntry(rawPath)} ${why}`, entry: rawPath },
    ]);
  }

  /** Records a file read by `accept`'s answer; `data` is what was kept, `size` its full size. */
  add(filePath: string, size: number, data: Buffer): void {
    if (path.posix.basename(filePath) === LOG_NAME) {
      // Decided in finish(): the root log becomes the submission's log, any other one a file.
      this.files.push({ path: filePath, size, content: null, skipped: null, log: this.logText(filePath, data) });
      return;
    }
    const text = size > this.limits.maxFileBytes ? null : decodeText(data);
    let file: SubmissionArchiveFile;
    if (size > this.limits.maxFileBytes) file = this.tooLarge(filePath, size);
    else if (text === null) file = { path: filePath, size, content: null, skipped: "binary" };
    else file = this.store(filePath, size, text);
    if (file.content === null && this.heads?.wanted(filePath))
      file.head = new Uint8Array(data.subarray(0, this.heads.bytes));
    this.files.push(file);
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
      return {
        path: filePath,
        size,
        content: null,
        skipped: `over the ${formatBytes(this.limits.maxTotalBytes)} kept in all`,
      };
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
      if (f.log === undefined)
        files.push({
          path: rel,
          size: f.size,
          content: f.content,
          skipped: f.skipped,
          ...(f.head ? { head: f.head } : {}),
        });
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
async function readKept(
  stream: AsyncIterable<Buffer>,
  keep: Keep,
  collector: Collector,
): Promise<{ data: Buffer; size: number }> {
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

/** Tar entry types tar-stream reports that are not files, folders or links, by what they are called in a message. */
const OTHER_TAR_TYPES: Record<string, string> = {
  "character-device": "character device",
  "block-device": "block device",
  fifo: "fifo",
};

/** What a tar entry is, for the path rule (also the outputs index's). */
export function tarEntryKind(header: tar.Header): EntryKind {
  switch (header.type) {
    case "file":
    case "contiguous-file":
    case null:
    case undefined:
      return { kind: "file" };
    case "directory":
      return { kind: "directory" };
    case "symlink":
      return { kind: "symlink", target: header.linkname ?? "" };
    case "link":
      return { kind: "hardlink", target: header.linkname ?? "" };
    default:
      return { kind: "other", type: OTHER_TAR_TYPES[header.type] ?? `tar entry of type ${header.type}` };
  }
}

async function readTar(input: ArchiveInput, gzip: boolean, collector: Collector): Promise<void> {
  const extract = tar.extract();
  const source = input.stream();
  const done = gzip ? pipeline(source, createGunzip(), extract) : pipeline(source, extract);
  // The loop below reports the same failure; keep this promise from being an unhandled rejection.
  done.catch(() => {});
  try {
    for await (const entry of extract) {
      const { header } = entry;
      const decision = collector.accept(header.name, tarEntryKind(header), header.size ?? 0);
      if (!decision) {
        for await (const chunk of entry) collector.countExpanded((chunk as Buffer).length);
        continue;
      }
      const { data: kept, size } = await readKept(entry as AsyncIterable<Buffer>, decision.keep, collector);
      collector.add(decision.path, size, kept);
    }
  } catch (err) {
    // A refusal stops reading: close the file rather than leave it open until the stream is collected.
    source.destroy();
    throw err;
  }
  await done;
}

/** A zip symlink's target is its content: read up to this much of it. */
const MAX_LINK_TARGET_BYTES = 4096;

async function readZip(input: ArchiveInput, collector: Collector): Promise<void> {
  // Names are decoded here, not by yauzl: it would refuse an unsafe name with an error naming no policy.
  const zip = await input.zip({
    lazyEntries: true,
    validateEntrySizes: true,
    strictFileNames: false,
    decodeStrings: false,
  });
  try {
    for await (const entry of zip.eachEntry()) {
      const fileName = yauzl.getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        false,
      );
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      let kind: EntryKind;
      if (fileName.endsWith("/") || mode === 0o040000) kind = { kind: "directory" };
      else if (mode === 0o120000) kind = { kind: "symlink", target: await readZipLinkTarget(zip, entry) };
      else if (mode === 0o020000 || mode === 0o060000 || mode === 0o010000 || mode === 0o140000) {
        kind = {
          kind: "other",
          type: { 0o020000: "character device", 0o060000: "block device", 0o010000: "fifo", 0o140000: "socket" }[mode]!,
        };
      } else kind = { kind: "file" };
      const decision = collector.accept(fileName, kind, entry.uncompressedSize);
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

async function readZipLinkTarget(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  if (entry.isEncrypted() || entry.uncompressedSize > MAX_LINK_TARGET_BYTES) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
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
      const kind: EntryKind = e.isFile()
        ? { kind: "file" }
        : e.isSymbolicLink()
          ? { kind: "symlink", target: fs.readlinkSync(full) }
          : { kind: "other", type: "special file" };
      const size = kind.kind === "file" ? fs.statSync(full).size : 0;
      const decision = collector.accept(relPath, kind, size);
      if (!decision) continue;
      const { data, size: read } = await readKept(fs.createReadStream(full), decision.keep, collector);
      collector.add(decision.path, read, data);
    }
  };
  await walk(root, "");
}
