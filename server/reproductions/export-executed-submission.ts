import "server-only";
import type { Readable } from "node:stream";
import { PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import * as tar from "tar-stream";

/** The folder PaperBench's archives of a submission hold it in (`tar -czf … /submission`). */
export const EXECUTED_SUBMISSION_ROOT = "submission";
/** PaperBench's name for the executed submission beside `submission_executed_metadata.json`. */
export const EXECUTED_SUBMISSION_FILE = "submission_executed.tar.gz";

/**
 * The executed submission as PaperBench stores one (`submission_executed.tar.gz`): the runner's
 * outputs archive, streamed, every entry under `submission/`, since PaperBench's
 * `put_submission_in_computer` moves `<extracted>/submission` to `/submission` before judging.
 * Contents, modes and dates are kept (the judge tells what reproduction wrote by its date); link
 * targets stay relative, so they point where they pointed.
 */
export function executedSubmissionArchive(outputs: Readable): Readable {
  const extract = tar.extract();
  const pack = tar.pack();
  const out = new PassThrough();
  const rooted = (name: string) => `${EXECUTED_SUBMISSION_ROOT}/${name.replace(/^(\.\/)+/, "")}`;
  const repack = (async () => {
    pack.entry({ name: `${EXECUTED_SUBMISSION_ROOT}/`, type: "directory", mode: 0o755 });
    const read = pipeline(outputs, createGunzip(), extract);
    for await (const entry of extract) {
      const header = { ...entry.header, name: rooted(entry.header.name) };
      if (header.type === "file" || header.type === "contiguous-file") {
        // Streamed entry by entry: a large file is never held whole.
        await pipeline(entry, pack.entry(header));
      } else {
        entry.resume();
        await new Promise<void>((resolve, reject) => pack.entry(header, (err) => (err ? reject(err) : resolve())));
      }
    }
    await read;
    pack.finalize();
  })();
  const written = pipeline(pack, createGzip(), out);
  Promise.all([repack, written]).catch((err: Error) => out.destroy(err));
  return out;
}
