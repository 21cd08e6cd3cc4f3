import "server-only";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import { CREATION_TIME_FILE, type OutputsIndex } from "@/lib/jobs/outputs-index";
import { AppError } from "@/lib/errors";
import { entryRefusal, normalizeEntryPath, quoteEntry } from "@/lib/files/entry-path";
import { tarEntryKind } from "@/server/submissions/archive";

const MAX_INDEXED_FILES = 100_000;

/**
 * Lists an uploaded outputs archive (.tar.gz, as the runner packs it): each file, its size, and
 * whether reproduction touched it: absent from the submission as uploaded, or modified after the
 * time in `reproduce.log.creation_time`. Tar keeps whole seconds, so a file dated in the very second
 * reproduction started counts as changed only when its size differs from the uploaded one's (an
 * archive made moments before its run would otherwise show every file changed). Every entry is held
 * to the path rule (`lib/files/entry-path.ts`), as the runner's packer holds them: an archive with
 * `../x`, `/abs`, a link out, or a device is refused (400, naming the entry) before anything is stored.
 */
export async function indexOutputsArchive(
  filePath: string,
  originalSizes: ReadonlyMap<string, number>,
): Promise<OutputsIndex> {
  const entries: { path: string; size: number; mtime: number }[] = [];
  let creationTime: number | null = null;
  const extract = tar.extract();
  let refused: AppError | null = null;
  extract.on("entry", (header, stream, next) => {
    const why = entryRefusal(header.name, tarEntryKind(header));
    if (why !== null) {
      // One refusal is enough: the archive is not stored, and its entries are not read further.
      refused = new AppError(
        "bad_request",
        `The outputs archive was refused: entry ${quoteEntry(header.name)} ${why}`,
        [{ path: "outputs", message: `entry ${quoteEntry(header.name)} ${why}`, entry: header.name }],
      );
      // The pipeline reports the refusal; the entry's own stream ends with it, unheard.
      stream.on("error", () => {});
      extract.destroy(refused);
      return;
    }
    const name = normalizeEntryPath(header.name) ?? "";
    if (header.type === "file" && entries.length < MAX_INDEXED_FILES) {
      entries.push({ path: name, size: header.size ?? 0, mtime: Math.floor((header.mtime?.getTime() ?? 0) / 1000) });
    }
    if (name === CREATION_TIME_FILE) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => {
        chunks.push(c as Buffer);
      });
      stream.on("end", () => {
        creationTime = creationTimeSeconds(Buffer.concat(chunks).toString("utf8"));
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
    if (refused) throw refused;
    throw new AppError("bad_request", `The outputs archive could not be read: ${(err as Error).message}`, [
      { path: "outputs", message: "not a .tar.gz" },
    ]);
  }
  const since = creationTime;
  const files = entries.map((e) => ({
    path: e.path,
    size: e.size,
    changed:
      e.path !== CREATION_TIME_FILE &&
      (!originalSizes.has(e.path) ||
        (since !== null && (e.mtime > since || (e.mtime === since && originalSizes.get(e.path) !== e.size)))),
  }));
  return { files, bytes: entries.reduce((n, e) => n + e.size, 0) };
}

/** The file's time in whole seconds: PaperBench's (and the runner's) `date +%s`, or an ISO date as older runners wrote it. */
function creationTimeSeconds(text: string): number | null {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}
