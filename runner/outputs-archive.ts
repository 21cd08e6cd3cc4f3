import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import * as tar from "tar-stream";
import { checkEntryPath, symlinkTargetRefusal } from "@/lib/files/entry-path";
import { MASK } from "./secret-masker";

export interface LeftOut {
  path: string;
  reason: string;
}

export interface OutputsArchiveResult {
  files: number;
  bytes: number;
  leftOut: LeftOut[];
  /** Files in which a secret's value was replaced by `***`. */
  masked: string[];
}

/**
 * The outputs archive (.tar.gz) of an executed submission: every file, as PaperBench keeps them,
 * less those over `maxFileBytes`; links are stored as links when they point down
 * (`lib/files/entry-path.ts`, never followed) and left out otherwise, as are names the rule refuses; a secret's value in a file is masked, as in the log, since
 * the archive goes to the studio.
 */
export async function buildOutputsArchive(dir: string, file: string, opts: { maxFileBytes: number; secrets: string[] }): Promise<OutputsArchiveResult> {
  const result: OutputsArchiveResult = { files: 0, bytes: 0, leftOut: [], masked: [] };
  const secrets = opts.secrets.filter((s) => s.length > 0).map((s) => Buffer.from(s));
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), fs.createWriteStream(file));
  const add = (header: Partial<tar.Header> & { name: string }, content?: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (content) pack.entry(header, content, done);
      else pack.entry(header, done);
    });

  const stack = [""];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : -1));
    for (const entry of entries) {
      const name = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const full = path.join(dir, name);
      // The studio refuses an outputs archive holding a name or a link the path rule refuses: leave those out here.
      const checked = checkEntryPath(name);
      if (!checked.ok) {
        result.leftOut.push({ path: name, reason: `a name the path rule refuses (${checked.reason})` });
        continue;
      }
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) {
        await add({ name: `${name}/`, type: "directory", mode: 0o755, mtime: stat.mtime });
        stack.push(name);
      } else if (stat.isSymbolicLink()) {
        const target = fs.readlinkSync(full);
        if (symlinkTargetRefusal(target) !== null) result.leftOut.push({ path: name, reason: `link out of the submission (${target})` });
        else await add({ name, type: "symlink", linkname: target, mode: 0o777, mtime: stat.mtime });
      } else if (!stat.isFile()) {
        result.leftOut.push({ path: name, reason: "not a regular file" });
      } else if (stat.size > opts.maxFileBytes) {
        result.leftOut.push({ path: name, reason: `${stat.size} bytes, over the limit of ${opts.maxFileBytes}` });
      } else {
        let content: Buffer = fs.readFileSync(full);
        if (secrets.some((s) => content.includes(s))) {
          content = maskBuffer(content, secrets);
          result.masked.push(name);
        }
        await add({ name, type: "file", mode: stat.mode & 0o111 ? 0o755 : 0o644, mtime: stat.mtime, size: content.length }, content);
        result.files += 1;
        result.bytes += content.length;
      }
    }
  }
  pack.finalize();
  await written;
  return result;
}

function maskBuffer(content: Buffer, secrets: Buffer[]): Buffer {
  let out = content;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = out.indexOf(secret); at !== -1; at = out.indexOf(secret, from)) {
      parts.push(out.subarray(from, at), Buffer.from(MASK));
      from = at + secret.length;
    }
    parts.push(out.subarray(from));
    out = Buffer.concat(parts);
  }
  return out;
}
