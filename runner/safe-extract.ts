import fs from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import * as yauzl from "yauzl";

/**
 * Extracting a submission archive onto the runner's disk. The studio checked it on upload; this is
 * the runner's own check, since it writes to disk what the studio only read: an entry that would
 * land outside the tree (`..`, an absolute path, a link out, a path through a link), a device or
 * a FIFO, or an archive past the limits refuses the whole archive, naming the entry.
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

  /** The host path of an entry, once its name and every directory on its way are checked. */
  target(name: string): string {
    if (++this.entries > this.limits.maxEntries) throw new UnsafeArchiveError(name, `the archive has more than ${this.limits.maxEntries} entries`);
    const rel = relativeInside(name, "");
    if (rel === null) throw new UnsafeArchiveError(name, "the path leaves the submission (absolute, .. or NUL)");
    let at = this.root;
    for (const part of rel.split("/").slice(0, -1)) {
      at = path.join(at, part);
      // A link already extracted could carry a later entry anywhere: nothing is written through one.
      if (fs.lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) throw new UnsafeArchiveError(name, "the path goes through a link");
    }
    return path.join(this.root, rel);
  }

  count(name: string, n: number): void {
    this.bytes += n;
    if (this.bytes > this.limits.maxExpandedBytes) throw new UnsafeArchiveError(name, `the archive expands to more than ${this.limits.maxExpandedBytes} bytes`);
  }

  /**
   * `mtime`: the archive's date for the file, kept on disk so that "changed by reproduction" (written
   * after reproduce.log.creation_time) means what it says, even for a run that takes a second.
   */
  async add(name: string, kind: EntryKind, mode: number, linkname: string | null, content: Readable | null, mtime?: Date): Promise<void> {
    if (kind === "other") throw new UnsafeArchiveError(name, "not a file, directory or link (a device or FIFO)");
    const dest = this.target(name);
    const existing = fs.lstatSync(dest, { throwIfNoEntry: false });
    if (kind === "directory") {
      if (existing && !existing.isDirectory()) throw new UnsafeArchiveError(name, "listed twice");
      fs.mkdirSync(dest, { recursive: true });
      return;
    }
    if (existing) throw new UnsafeArchiveError(name, "listed twice");
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    const entryDir = path.posix.dirname(relativeInside(name, "")!);
    if (kind === "symlink") {
      if (!linkname || linkname.startsWith("/") || relativeInside(linkname, entryDir) === null) throw new UnsafeArchiveError(name, `the link points outside the submission (${linkname})`);
      fs.symlinkSync(linkname, dest);
      return;
    }
    if (kind === "hardlink") {
      // A hard link's name is from the archive's root; it is extracted as a copy of a file already in the tree.
      const source = linkname === null ? null : relativeInside(linkname, "");
      const sourcePath = source === null ? null : this.target(source);
      if (sourcePath === null || !fs.lstatSync(sourcePath, { throwIfNoEntry: false })?.isFile()) {
        throw new UnsafeArchiveError(name, `the hard link points outside the submission's files (${linkname})`);
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

/** `name` joined to `base` (both relative, `/`-separated) and normalized, or null when it leaves the root. */
function relativeInside(name: string, base: string): string | null {
  if (name.includes("\u0000") || name.startsWith("/") || /^[a-zA-Z]:/.test(name)) return null;
  const parts: string[] = base === "" || base === "." ? [] : base.split("/");
  for (const seg of name.replace(/\\/g, "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}

/**
 * Extracts a .tar.gz, .tar or .zip into `dest` (created empty) and answers the submission's root:
 * `dest`, or its one directory when the archive holds a single folder and nothing else.
 */
export async function safeExtract(archive: string, dest: string, limits: ExtractLimits = EXTRACT_LIMITS): Promise<string> {
  fs.mkdirSync(dest, { recursive: true });
  const root = fs.realpathSync(dest);
  const extractor = new Extractor(root, limits);
  const head = Buffer.alloc(262);
  const fd = fs.openSync(archive, "r");
  const read = fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const magic = head.subarray(0, read);
  if (magic[0] === 0x50 && magic[1] === 0x4b) await extractZip(archive, extractor);
  else if (magic[0] === 0x1f && magic[1] === 0x8b) await extractTar(fs.createReadStream(archive).pipe(createGunzip()), extractor);
  else if (magic.length >= 262 && magic.toString("latin1", 257, 262) === "ustar") await extractTar(fs.createReadStream(archive), extractor);
  else throw new Error("the submission is not a .tar.gz, .tar or .zip archive");
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
      h.type === "file" || h.type === "contiguous-file" ? "file" : h.type === "directory" ? "directory" : h.type === "symlink" ? "symlink" : h.type === "link" ? "hardlink" : "other";
    // pax and GNU long-name headers are folded into the entry by tar-stream; anything else is refused by kind.
    await extractor.add(h.name, kind, h.mode ?? 0o644, h.linkname ?? null, kind === "file" ? (entry as unknown as Readable) : null, h.mtime);
    entry.resume();
  }
  await done;
}

async function extractZip(file: string, extractor: Extractor): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z!))),
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
      const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s!))));
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
