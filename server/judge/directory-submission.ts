import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import type { SubmissionDirEntry, SubmissionFileInfo, SubmissionFiles } from "@/lib/judge/engine-contract";
import { REPRODUCE_LOG, SKIPPED_DIRS } from "@/lib/judge/engine/file-selection";
import { HEAD_BYTES, judgeFileText, judgeLogText } from "@/lib/judge/engine/judge-file-text";

/** The first `max` bytes of a file. */
async function readHead(full: string, max: number): Promise<Buffer> {
  const handle = await fs.open(full, "r");
  try {
    const buffer = Buffer.alloc(max);
    const { bytesRead } = await handle.read(buffer, 0, max, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** st_mtime as CPython computes it (`sec + nsec * 1e-9`, in doubles). */
function pythonMtime(ns: bigint): number {
  return Number(ns / 1_000_000_000n) + Number(ns % 1_000_000_000n) * 1e-9;
}

/** A folder's entries in the order the OS lists them (`fs.opendir`, as Python's os.scandir reads them). */
async function listInOrder(dir: string): Promise<import("node:fs").Dirent[]> {
  const out: import("node:fs").Dirent[] = [];
  const handle = await fs.opendir(dir);
  for await (const entry of handle) out.push(entry);
  return out;
}

/** A regular file inside `base` (links followed, as Python's open does, but never out of `base`), or null. */
async function insideFile(base: string, relPath: string): Promise<string | null> {
  const full = path.resolve(base, relPath);
  if (full === base || !full.startsWith(base + path.sep)) return null;
  try {
    const real = await fs.realpath(full);
    const realBase = await fs.realpath(base);
    if (!real.startsWith(realBase + path.sep)) return null;
    return (await fs.stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}

/**
 * os.walk over the folder (top-down, pre-order, names in listing order): a link to a folder is
 * listed among the folders but not walked; a file's mtime is its target's (os.stat), 0 when that
 * fails (a broken link), as PaperBench's walk_dir_with_mtimes reads it.
 */
export async function walkLikePython(root: string): Promise<SubmissionDirEntry[]> {
  const out: SubmissionDirEntry[] = [];
  const visit = async (dir: string, rel: string) => {
    const entry: SubmissionDirEntry = { dir: rel, dirs: [], files: [] };
    out.push(entry);
    const walkInto: string[] = [];
    for (const e of await listInOrder(dir)) {
      const full = path.join(dir, e.name);
      let isDir = e.isDirectory();
      if (e.isSymbolicLink())
        isDir = await fs.stat(full).then(
          (s) => s.isDirectory(),
          () => false,
        );
      if (isDir) {
        entry.dirs.push(e.name);
        if (!e.isSymbolicLink()) walkInto.push(e.name);
      } else {
        const mtime = await fs.stat(full, { bigint: true }).then(
          (s) => pythonMtime(s.mtimeNs),
          () => 0,
        );
        entry.files.push({ name: e.name, mtime });
      }
    }
    for (const name of walkInto) await visit(path.join(dir, name), rel ? `${rel}/${name}` : name);
  };
  await visit(root, "");
  return out;
}

/**
 * A submission folder on disk as the judge reads it (the CLI, tests): files with their sizes and
 * modification times (what tells reproduction's outputs apart), text read on demand by the
 * worker's rule (lib/judge/engine/judge-file-text.ts). Links are not followed and folders the judge
 * never reads (`.git`, `venv`, …) are not walked.
 */
export function directorySubmissionFiles(root: string): SubmissionFiles {
  const base = path.resolve(root);
  return {
    async list(): Promise<SubmissionFileInfo[]> {
      const out: SubmissionFileInfo[] = [];
      const walk = async (dir: string, rel: string) => {
        for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
          const relPath = rel ? `${rel}/${entry.name}` : entry.name;
          if (entry.isDirectory()) {
            if (!SKIPPED_DIRS.has(entry.name) && !entry.name.endsWith(".egg-info"))
              await walk(path.join(dir, entry.name), relPath);
          } else if (entry.isFile()) {
            const stat = await fs.stat(path.join(dir, entry.name));
            out.push({ path: relPath, size: stat.size, mtimeMs: stat.mtimeMs });
          }
        }
      };
      await walk(base, "");
      return out;
    },
    walk: () => walkLikePython(base),
    async readHead(relPath: string, maxBytes: number) {
      const file = await insideFile(base, relPath);
      if (!file) return null;
      try {
        const handle = await fs.open(file, "r");
        try {
          const stat = await handle.stat({ bigint: true });
          const buffer = Buffer.alloc(Math.min(maxBytes, Number(stat.size)));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
          return { bytes: new Uint8Array(buffer.subarray(0, bytesRead)), mtime: pythonMtime(stat.mtimeNs) };
        } finally {
          await handle.close();
        }
      } catch {
        return null;
      }
    },
    async read(relPath: string): Promise<string | null> {
      const full = path.resolve(base, relPath);
      if (full !== base && !full.startsWith(base + path.sep)) return null;
      try {
        const stat = await fs.lstat(full);
        if (!stat.isFile()) return null;
        if (relPath === REPRODUCE_LOG) return judgeLogText(await fs.readFile(full));
        return judgeFileText(await readHead(full, Math.min(stat.size, HEAD_BYTES)), stat.size);
      } catch {
        return null;
      }
    },
  };
}
