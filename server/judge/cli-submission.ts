import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SubmissionFiles } from "@/lib/judge/engine-contract";
import { ARCHIVE_LIMITS } from "@/server/submissions/archive";
import { extractCheckedArchive } from "@/server/submissions/extract-checked-archive";
import { directorySubmissionFiles } from "./directory-submission";

export interface OpenedSubmission {
  files: SubmissionFiles;
  /** Removes what opening extracted (nothing for a folder). */
  close(): void;
}

/**
 * A submission for the standalone judge: a folder is read where it is; an archive (.tar.gz, .tar,
 * .zip) is first checked entry by entry by the studio's upload checks (no `..`, absolute paths,
 * links out of the tree, devices, bombs: the whole archive is refused, naming the entry), then
 * extracted by tar or unzip into a temporary folder, which keeps the files' times (what tells
 * reproduction's outputs apart).
 */
export async function openSubmission(source: string): Promise<OpenedSubmission> {
  const stat = fs.statSync(source);
  if (stat.isDirectory()) return { files: directorySubmissionFiles(source), close: () => undefined };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "judge-submission-"));
  try {
    await extractCheckedArchive(source, path.basename(source), dir, ARCHIVE_LIMITS, "submission");
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // An archive of one top folder (`submission/…`) is that folder.
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  const root = entries.length === 1 && entries[0].isDirectory() ? path.join(dir, entries[0].name) : dir;
  return { files: directorySubmissionFiles(root), close: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
