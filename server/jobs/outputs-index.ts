import "server-only";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import { CREATION_TIME_FILE, type OutputsIndex } from "@/lib/jobs/outputs-index";
import { AppError } from "@/lib/errors";

const MAX_INDEXED_FILES = 100_000;

/**
 * Lists an uploaded outputs archive (.tar.gz, as the runner packs it): each file, its size, and
 * whether reproduction touched it: absent from the submission as uploaded, or modified after the
 * time in `reproduce.log.creation_time`. Tar keeps whole seconds, so a file dated in the very second
 * reproduction started counts as changed only when its size differs from the uploaded one's (an
 * archive made moments before its run would otherwise show every file changed).
 */
export async function indexOutputsArchive(filePath: string, originalSizes: ReadonlyMap<string, number>): Promise<OutputsIndex> {
  const entries: { path: string; size: number; mtime: number }[] = [];
  let creationTime: number | null = null;
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const name = header.name.replace(/^\.\//, "");
    if (header.type === "file" && entries.length < MAX_INDEXED_FILES) {
      entries.push({ path: name, size: header.size ?? 0, mtime: Math.floor((header.mtime?.getTime() ?? 0) / 1000) });
    }
    if (name === CREATION_TIME_FILE) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => {
        chunks.push(c as Buffer);
      });
      stream.on("end", () => {
        const t = Date.parse(Buffer.concat(chunks).toString("utf8").trim());
        if (!Number.isNaN(t)) creationTime = Math.floor(t / 1000);
        next();
      });
    } else {
      stream.on("end", next);
      stream.resume();
    }
  });
  try {
    await pipeline(fs.createReadStream(filePath), createGunzip(), extract);
  } catch (err) {
    throw new AppError("bad_request", `The outputs archive could not be read: ${(err as Error).message}`, [{ path: "outputs", message: "not a .tar.gz" }]);
  }
  const since = creationTime;
  const files = entries.map((e) => ({
    path: e.path,
    size: e.size,
    changed: e.path !== CREATION_TIME_FILE && (!originalSizes.has(e.path) || (since !== null && (e.mtime > since || (e.mtime === since && originalSizes.get(e.path) !== e.size)))),
  }));
  return { files, bytes: entries.reduce((n, e) => n + e.size, 0) };
}
