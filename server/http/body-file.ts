import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeBodyToFile } from "./body";

export interface BodyFile {
  path: string;
  bytes: number;
  /** Removes the file (and its folder); safe to call twice. */
  remove(): void;
}

/**
 * A request body (an archive of gigabytes) in a temporary file of its own, streamed and counted
 * by `writeBodyToFile` (413 past `maxBytes`, nothing left on disk). Memory stays flat whatever the size.
 */
export async function readBodyToTempFile(req: Request, maxBytes: number): Promise<BodyFile> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-upload-"));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  const file = path.join(dir, "body");
  try {
    return { path: file, bytes: await writeBodyToFile(req, file, maxBytes), remove };
  } catch (err) {
    remove();
    throw err;
  }
}
