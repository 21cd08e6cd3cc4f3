import "server-only";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import type { Job } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { normalizeEntryPath } from "@/lib/files/entry-path";
import { imageTypeOf } from "@/lib/files/file-kind";
import type { OutputsIndex } from "@/lib/jobs/outputs-index";
import { openBlob } from "@/server/blobs/store-blob";
import { ARCHIVE_LIMITS, decodeText } from "@/server/submissions/archive";
import { storedOutputsOf } from "@/server/jobs/read-job";

/** An image is shown up to this size; a text file up to the archive's kept-text limit, as a submission's own files. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * One output file as the viewer reads it: its text (UTF-8 without NUL, up to the kept-text
 * limit, the submission's own rule), else why not; an image says so and is fetched as bytes.
 */
export async function readJobOutputFile(job: Job, path: string) {
  const listed = requireListed(job, path);
  const image = imageTypeOf(path) !== null;
  if (image) return { file: { path, size: listed.size, skipped: null, content: null, image: true } };
  if (listed.size > ARCHIVE_LIMITS.maxFileBytes)
    return { file: { path, size: listed.size, skipped: "over 1 MiB", content: null, image: false } };
  const content = decodeText(await outputBytes(job, path, ARCHIVE_LIMITS.maxFileBytes));
  return { file: { path, size: listed.size, skipped: content === null ? "binary" : null, content, image: false } };
}

/** An output image's bytes and its content type (a raster type only: `lib/files/file-kind.ts`). */
export async function readJobOutputImage(job: Job, path: string): Promise<{ bytes: Buffer; contentType: string }> {
  const listed = requireListed(job, path);
  const contentType = imageTypeOf(path);
  if (!contentType)
    throw new AppError("bad_request", `${path} is not an image the studio shows (PNG, JPEG, GIF or WebP)`, [
      { path: "image", message: "must name a PNG, JPEG, GIF or WebP file" },
    ]);
  if (listed.size > MAX_IMAGE_BYTES)
    throw new AppError("payload_too_large", `${path} is over 10 MiB: download the outputs to see it`);
  return { bytes: await outputBytes(job, path, MAX_IMAGE_BYTES), contentType };
}

function requireOutputs(job: Job): OutputsIndex {
  const outputs = job.outputsSha256 ? storedOutputsOf(job) : null;
  if (!outputs) throw new AppError("not_found", "This job has no outputs (yet)");
  return outputs;
}

function requireListed(job: Job, path: string): { size: number } {
  const listed = requireOutputs(job).files.find((f) => f.path === path);
  if (!listed)
    throw new AppError("not_found", `The outputs hold no file ${path.slice(0, 300)}`, [
      { path: "path", message: "is not among the outputs" },
    ]);
  return listed;
}

/** The first `max` bytes of one file of the outputs archive, streamed from the blob store. */
async function outputBytes(job: Job, path: string, max: number): Promise<Buffer> {
  const extract = tar.extract();
  const done = pipeline(await openBlob(job.outputsSha256!), createGunzip(), extract);
  done.catch(() => {});
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const entry of extract) {
    const { header } = entry;
    const found = header.type === "file" && normalizeEntryPath(header.name) === path;
    for await (const chunk of entry as AsyncIterable<Buffer>) {
      if (!found || kept >= max) continue;
      chunks.push(chunk.subarray(0, max - kept));
      kept += Math.min(chunk.length, max - kept);
    }
    if (found) {
      extract.destroy();
      break;
    }
  }
  return Buffer.concat(chunks);
}
