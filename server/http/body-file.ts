import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AppError } from "@/lib/errors";
import { formatBytes } from "./body";

export interface BodyFile {
  path: string;
  bytes: number;
  /** Removes the file (and its folder); safe to call twice. */
  remove(): void;
}

/**
 * Streams a request body (an archive of gigabytes) to a temporary file, counting bytes as they
 * arrive: past `maxBytes` the request is refused with 413 and nothing is left on disk. Memory use
 * stays flat whatever the size.
 */
export async function readBodyToFile(req: Request, maxBytes: number, what: string): Promise<BodyFile> {
  if (!req.body) throw new AppError("bad_request", `The request has no body: send ${what}`, [{ path: "body", message: "is empty" }]);
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(what, maxBytes);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-upload-"));
  const file = path.join(dir, "body");
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(tooLarge(what, maxBytes));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(req.body as WebReadableStream<Uint8Array>), counter, fs.createWriteStream(file));
  } catch (err) {
    remove();
    if (err instanceof AppError) throw err;
    throw new AppError("bad_request", `${what} did not arrive whole: ${(err as Error).message}`, [{ path: "body", message: "the upload was cut off" }]);
  }
  return { path: file, bytes, remove };
}

function tooLarge(what: string, maxBytes: number): AppError {
  return new AppError("payload_too_large", `${what} is larger than ${formatBytes(maxBytes)}`, [{ path: "body", message: `must be at most ${formatBytes(maxBytes)}` }]);
}
