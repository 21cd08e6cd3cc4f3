import fs from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import * as yauzl from "yauzl";
import {
  checkEntryPath,
  entryRefusal,
  normalizeEntryPath,
  type EntryKind as RuleEntryKind,
} from "@/lib/files/entry-path";

/**
 * Extracting a submission archive onto the runner's disk. The studio checked it on upload; this is
 * the runner's own check, under the same path rule (`lib/files/entry-path.ts`: no absolute name, no
 * `..` segment, links only pointing down), since it writes to disk what the studio only read. An
 * entry the rule refuses, a write through a link already extracted, a device or a FIFO, or an
 * archive past the limits refuses the whole archive, naming the entry, and leaves nothing behind.
 */
export const EXTRACT_LIMITS = { maxEntries: 100_000, maxExpandedBytes: 2 * 1024 * 1024 * 1024 };
export type ExtractLimits = typeof EXTRACT_LIMITS;

export class UnsafeArchiveError extends Error {
  constructor(
    readonly entry: string,
    reason: string,
  ) {
    super(`unsafe archive entry ${JSON.stringify(entry)}: ${reason}`);
    this.name = "UnsafeArchiveError";
  }
}

type EntryKind = "file" | "directory" | "symlink" | "hardlink" | "other";

class Extractor {
  private entries = 0;
  private bytes = 0;

  constructor(
    private readonly root: string,
    private readonly limits: ExtractLimits,
  ) {}

  /** The host path of `rel` (a name the rule accepted), once no directory on its way is a link. */
  private inside(name: string, rel: string): string {
    let at = this.root;
    for (const part of rel.split("/").slice(0, -1)) {
      at = path.join(at, part);
      // A link already extracted points down, but nothing is written through one all the same.
      if (fs.lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink())
        throw new UnsafeArchiveError(name, "the path goes through a link");
    }
    return path.join(this.root, rel);
  }

  count(name: string, n: number): void {
    this.bytes += n;
    if (this.bytes > this.limits.maxExpandedBytes)
      throw new UnsafeArchiveError(name, `the archive expands to more than ${this.limits.maxExpandedBytes} bytes`);
  }

  /**
   * `mtime`: the archive's date for the file, kept on disk so that "changed by reproduction" (written
   * after reproduce.log.creation_time) means what it says, even for a run that takes a second.
   */
  async add(
    name: string,
    kind: EntryKind,
    mode: number,
    linkname: string | null,
    content: Readable | null,
    mtime?: Date,
  ): Promise<void> {
    if (++this.entries > this.limits.maxEntries)
      throw new UnsafeArchiveError(name, `the archive has more than ${this.limits.maxEntries} entries`);
    const refusal = entryRefusal(name, ruleKind(kind, linkname));
    if (refusal !== null) throw new UnsafeArchiveError(name, refusal);
    const checked = checkEntryPath(name);
    // Only the root folder itself (`./`) has no name: it is `dest`, already there.
    if (!checked.ok) return;
    const dest = this.inside(name, checked.path);
    const existing = fs.lstatSync(dest, { throwIfNoEntry: false });
    if (kind === "directory") {
      if (existing && !existing.isDirectory()) throw new UnsafeArchiveError(name, "listed twice");
      fs.mkdirSync(dest, { recursive: true });
      return;
    }
    if (existing) throw new UnsafeArchiveError(name, "listed twice");
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    if (kind === "symlink") {
      fs.symlinkSync(linkname!, dest);
      return;
    }
    if (kind === "hardlink") {
      // A hard link names a file already extracted, from the archive's root; it is extracted as a copy of it.
      const sourcePath = this.inside(name, normalizeEntryPath(linkname!)!);
      if (!fs.lstatSync(sourcePath, { throwIfNoEntry: false })?.isFile()) {
        throw new UnsafeArchiveError(name, `the hard link names no file extracted before it (${linkname})`);
      }
      fs.copyFileSync(sourcePath, dest);
      return;
    }
    const counter = this.count.bind(this);
    await pipeline(
      content!,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          counter(name, chunk.length);
          yield chunk;
        }
      },
      fs.createWriteStream(dest, { flags: "wx", mode: mode & 0o111 ? 0o755 : 0o644 }),
    );
    if (mtime && !Number.isNaN(mtime.getTime())) fs.utimesSync(dest, mtime, mtime);
  }
}

/** The rule's kind of an entry. */
function ruleKind(kind: EntryKind, linkname: string | null): RuleEntryKind {
  if (kind === "symlink" || kind === "hardlink") return { kind, target: linkname ?? "" };
  if (kind === "other") return { kind: "other", type: "device or FIFO" };
  return { kind };
}

/**
 * Extracts a .tar.gz, .tar or .zip into `dest` (created empty) and answers the submission's root:
 * `dest`, or its one directory when the archive holds a single folder and nothing else. A refused
 * archive leaves `dest` empty.
 */
export async function safeExtract(
  archive: string,
  dest: string,
  limits: ExtractLimits = EXTRACT_LIMITS,
): Promise<string> {
  fs.mkdirSync(dest, { recursive: true });
  const root = fs.realpathSync(dest);
  const extractor = new Extractor(root, limits);
  const head = Buffer.alloc(262);
  const fd = fs.openSync(archive, "r");
  const read = fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const magic = head.subarray(0, read);
  try {
    if (magic[0] === 0x50 && magic[1] === 0x4b) await extractZip(archive, extractor);
    else if (magic[0] === 0x1f && magic[1] === 0x8b)
      await extractTar(fs.createReadStream(archive).pipe(createGunzip()), extractor);
    else if (magic.length >= 262 && magic.toString("latin1", 257, 262) === "ustar")
      await extractTar(fs.createReadStream(archive), extractor);
    else throw new Error("the submission is not a .tar.gz, .tar or .zip archive");
  } catch (err) {
    // Nothing half-extracted stays behind.
    for (const entry of fs.readdirSync(root)) fs.rmSync(path.join(root, entry), { recursive: true, force: true });
    throw err;
  }
  const top = fs.readdirSync(root, { withFileTypes: true });
  return top.length === 1 && top[0].isDirectory() ? path.join(root, top[0].name) : root;
}

async function extractTar(input: Readable, extractor: Extractor): Promise<void> {
  const extract = tar.extract();
  const done = pipeline(input, extract as unknown as Writable);
  // A refusal ends the loop early and the pipeline with it: its own error then says nothing new.
  done.catch(() => undefined);
  for await (const entry of extract) {
    const h = entry.header;
    const kind: EntryKind =
      h.type === "file" || h.type === "contiguous-file"
        ? "file"
        : h.type === "directory"
          ? "directory"
          : h.type === "symlink"
            ? "symlink"
            : h.type === "link"
              ? "hardlink"
              : "other";
    // pax and GNU long-name headers are folded into the entry by tar-stream; anything else is refused by kind.
    await extractor.add(
      h.name,
      kind,
      h.mode ?? 0o644,
      h.linkname ?? null,
      kind === "file" ? (entry as unknown as Readable) : null,
      h.mtime,
    );
    entry.resume();
  }
  await done;
}

async function extractZip(file: string, extractor: Extractor): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (err, z) =>
      err ? reject(err) : resolve(z!),
    ),
  );
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        zip.once("entry", resolve);
        zip.once("end", () => resolve(null));
        zip.once("error", reject);
        zip.readEntry();
      });
      zip.removeAllListeners("entry").removeAllListeners("end").removeAllListeners("error");
      if (!entry) return;
      const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
      const type = unixMode & 0o170000;
      const name = entry.fileName;
      if (name.endsWith("/") || type === 0o040000) {
        await extractor.add(name, "directory", 0o755, null, null);
        continue;
      }
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s!))),
      );
      if (type === 0o120000) {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        await extractor.add(name, "symlink", 0, Buffer.concat(chunks).toString("utf8"), null);
      } else if (type === 0 || type === 0o100000) {
        await extractor.add(name, "file", unixMode, null, stream, entry.getLastModDate());
      } else {
        stream.destroy();
        await extractor.add(name, "other", 0, null, null);
      }
    }
  } finally {
    zip.close();
  }
}
