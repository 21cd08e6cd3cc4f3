import "server-only";
import fs from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { checkEntryPath, quoteEntry, symlinkTargetRefusal } from "@/lib/files/entry-path";

/**
 * Reading an unpacked upload (a bulk upload, an ingested `runs/` folder) without ever leaving it.
 * Two locks, either enough alone: the tree was unpacked under the one path rule
 * (`lib/files/entry-path.ts`: every link points down, so none resolves outside; checked again on
 * disk by `checkUnpackedTree`), and these readers follow no link at all: they `lstat`, list real
 * folders only, and open files with `O_NOFOLLOW`. A link where a layout expects a file or a folder
 * is not that file or folder. Links inside a submission are kept as links, never followed by the
 * studio: the folder packer stores them as links, and the archive check holds them to the rule.
 */

export type TreeEntryKind = "file" | "directory" | "link" | "other";

/** What is at `p`, without following a link there; null when nothing is. */
export function entryKindAt(p: string): TreeEntryKind | null {
  const stat = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!stat) return null;
  return stat.isSymbolicLink() ? "link" : stat.isFile() ? "file" : stat.isDirectory() ? "directory" : "other";
}

/** A regular file, not a link to one. */
export const isRealFile = (p: string) => entryKindAt(p) === "file";

/** A folder, not a link to one. */
export const isRealDirectory = (p: string) => entryKindAt(p) === "directory";

/** The names of the real folders in `dir` (links to folders are not folders), sorted. */
export function realSubdirs(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** The first of `names` (relative to `dir`) that is a link, which a reader would have taken for its file or folder; null when none is. */
export function firstLinkAmong(dir: string, names: readonly string[]): string | null {
  return names.find((name) => entryKindAt(path.join(dir, name)) === "link") ?? null;
}

/** The refusal of a link where a layout expects a file or a folder: named, never followed. */
export const LINK_NOT_FOLLOWED = "is a link: links in an upload are not followed";

/**
 * A regular file's text, opened with `O_NOFOLLOW` (a link there fails, it is not read through) and
 * refused past `maxBytes`. `where` names it in the upload for the error.
 */
export function readRealFile(file: string, where: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    throw uploadReadError(err, where);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile())
      throw new AppError("bad_request", `${where} is not a file`, [{ path: where, message: "is not a file" }]);
    if (stat.size > maxBytes)
      throw new AppError("bad_request", `${where} is ${stat.size} bytes, more than ${maxBytes}`, [
        { path: where, message: `must be at most ${maxBytes} bytes` },
      ]);
    return fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `rel` (a path as a person wrote it: a manifest's row) inside `root`: held to the path rule, then
 * walked one segment at a time with `lstat`, so no link on the way is followed. The file or folder
 * it names, or why not.
 */
export function findInTree(
  root: string,
  rel: string,
): { path: string; kind: "file" | "directory" } | { problem: string } {
  const checked = checkEntryPath(rel);
  if (!checked.ok) return { problem: checked.reason };
  let at = root;
  const parts = checked.path.split("/");
  for (const [i, part] of parts.entries()) {
    at = path.join(at, part);
    const kind = entryKindAt(at);
    const shown = parts.slice(0, i + 1).join("/");
    if (kind === null) return { problem: "is not a file or folder in the upload" };
    if (kind === "link")
      return {
        problem:
          i === parts.length - 1
            ? LINK_NOT_FOLLOWED
            : `goes through the link ${quoteEntry(shown)}: links in an upload are not followed`,
      };
    if (kind === "other") return { problem: `names ${quoteEntry(shown)}, which is not a file or folder` };
    if (kind === "file" && i < parts.length - 1) return { problem: "is not a file or folder in the upload" };
  }
  return { path: at, kind: entryKindAt(at) as "file" | "directory" };
}

/**
 * The unpacked tree as it is on disk, held to the path rule once more (tar and unzip read the
 * archive themselves, and may read it otherwise than the check did): every name, every link's
 * target, nothing but files, folders and links. A 400 naming the first entry that breaks it.
 */
export function checkUnpackedTree(root: string, name: string, field: string): void {
  const stack = [""];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const entry = rel === "" ? e.name : `${rel}/${e.name}`;
      const full = path.join(root, entry);
      const checked = checkEntryPath(entry);
      let why = checked.ok ? null : checked.reason;
      if (why === null && e.isSymbolicLink()) why = symlinkTargetRefusal(fs.readlinkSync(full));
      else if (why === null && e.isDirectory()) stack.push(entry);
      else if (why === null && !e.isFile()) why = "is not a file, folder or link";
      if (why !== null) {
        throw new AppError("bad_request", `${name} was refused: entry ${quoteEntry(entry)} ${why}`, [
          { path: field, message: `entry ${quoteEntry(entry)} ${why}`, entry },
        ]);
      }
    }
  }
}

/** A file-system error met while reading an upload (a missing file, a link, a file where a folder should be) as the 400 it is. */
export function uploadReadError(err: unknown, where: string): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why: Record<string, string> = {
    ENOENT: "does not exist",
    ELOOP: LINK_NOT_FOLLOWED,
    ENOTDIR: "is not a folder",
    EISDIR: "is a folder, not a file",
    EACCES: "cannot be read",
  };
  if (code === undefined || !(code in why)) return err;
  return new AppError("bad_request", `${where} ${why[code]}`, [{ path: where, message: why[code] }]);
}
