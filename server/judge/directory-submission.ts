import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import type { SubmissionFileInfo, SubmissionFiles } from "@/lib/judge/engine-contract";
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
            if (!SKIPPED_DIRS.has(entry.name) && !entry.name.endsWith(".egg-info")) await walk(path.join(dir, entry.name), relPath);
          } else if (entry.isFile()) {
            const stat = await fs.stat(path.join(dir, entry.name));
            out.push({ path: relPath, size: stat.size, mtimeMs: stat.mtimeMs });
          }
        }
      };
      await walk(base, "");
      return out;
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
