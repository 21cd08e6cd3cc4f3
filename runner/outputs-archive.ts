import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import * as tar from "tar-stream";
import { checkEntryPath, symlinkTargetRefusal } from "@/lib/files/entry-path";
import { SecretMasker } from "./secret-masker";

export interface LeftOut {
  path: string;
  reason: string;
}

export interface OutputsArchiveResult {
  files: number;
  bytes: number;
  leftOut: LeftOut[];
  /** Where a secret's value was replaced by `***`: a file's content, or its name or link target (as stored). */
  masked: string[];
}

/**
 * The outputs archive (.tar.gz) of an executed submission: every file, as PaperBench keeps them,
 * less those over `maxFileBytes`; links are stored as links when they point down
 * (`lib/files/entry-path.ts`, never followed) and left out otherwise, as are names that rule
 * refuses (the studio would refuse the whole archive for them). A secret's value is masked, as in the log, since the archive
 * and its index go to the studio where graders read them: in a file's content, its name (a name
 * that then repeats another gets `~2`, `~3`, …) and a link's target; the names this answers (left
 * out, masked) are the masked ones too, since they go into the log.
 */
export async function buildOutputsArchive(
  dir: string,
  file: string,
  opts: { maxFileBytes: number; secrets: string[] },
): Promise<OutputsArchiveResult> {
  const result: OutputsArchiveResult = { files: 0, bytes: 0, leftOut: [], masked: [] };
  const names = new SecretMasker(opts.secrets);
  // Contents are bytes: masked as latin1 text (one character per byte), against each value's UTF-8 bytes.
  const contents = new SecretMasker(opts.secrets.map((s) => Buffer.from(s).toString("latin1")));
  const stored = new Set<string>();
  /** The name an entry is stored (and reported) under, in its directory's stored name: masked, and never one already taken. */
  const storedName = (dirStored: string, entry: string): string => {
    const plain = dirStored === "" ? entry : `${dirStored}/${entry}`;
    const masked = names.mask(plain);
    let unique = masked;
    for (let n = 2; stored.has(unique); n++) unique = `${masked}~${n}`;
    stored.add(unique);
    if (masked !== plain) result.masked.push(`${unique} (its name)`);
    return unique;
  };
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), fs.createWriteStream(file));
  const add = (header: Partial<tar.Header> & { name: string }, content?: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (content) pack.entry(header, content, done);
      else pack.entry(header, done);
    });

  const stack = [{ rel: "", stored: "" }];
  while (stack.length > 0) {
    const { rel, stored: dirStored } = stack.pop()!;
    const entries = fs
      .readdirSync(path.join(dir, rel), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? 1 : -1));
    for (const entry of entries) {
      const name = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const full = path.join(dir, name);
      /** How a left-out entry is named in the log. */
      const shown = () => names.mask(dirStored === "" ? entry.name : `${dirStored}/${entry.name}`);
      const checked = checkEntryPath(name);
      if (!checked.ok) {
        result.leftOut.push({ path: shown(), reason: `a name the path rule refuses (${checked.reason})` });
        continue;
      }
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) {
        const entryName = storedName(dirStored, entry.name);
        await add({ name: `${entryName}/`, type: "directory", mode: 0o755, mtime: stat.mtime });
        stack.push({ rel: name, stored: entryName });
      } else if (stat.isSymbolicLink()) {
        const target = fs.readlinkSync(full);
        if (symlinkTargetRefusal(target) !== null) {
          result.leftOut.push({ path: shown(), reason: `link out of the submission (${names.mask(target)})` });
          continue;
        }
        const entryName = storedName(dirStored, entry.name);
        const linkname = names.mask(target);
        if (linkname !== target) result.masked.push(`${entryName} (its link target)`);
        await add({ name: entryName, type: "symlink", linkname, mode: 0o777, mtime: stat.mtime });
      } else if (!stat.isFile()) {
        result.leftOut.push({ path: shown(), reason: "not a regular file" });
      } else if (stat.size > opts.maxFileBytes) {
        result.leftOut.push({ path: shown(), reason: `${stat.size} bytes, over the limit of ${opts.maxFileBytes}` });
      } else {
        const entryName = storedName(dirStored, entry.name);
        let content: Buffer = fs.readFileSync(full);
        const text = content.toString("latin1");
        const masked = contents.mask(text);
        if (masked !== text) {
          content = Buffer.from(masked, "latin1");
          result.masked.push(entryName);
        }
        await add(
          {
            name: entryName,
            type: "file",
            mode: stat.mode & 0o111 ? 0o755 : 0o644,
            mtime: stat.mtime,
            size: content.length,
          },
          content,
        );
        result.files += 1;
        result.bytes += content.length;
      }
    }
  }
  pack.finalize();
  await written;
  return result;
}
