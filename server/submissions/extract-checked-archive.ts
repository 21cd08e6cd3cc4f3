import "server-only";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { checkSubmissionArchive, type ArchiveLimits } from "./archive";

/**
 * Extracts an archive (.tar.gz, .tar, .zip) into `dir` once the upload checks passed on every
 * entry (no `..`, absolute paths, links out of the tree, devices, bombs: the whole archive is
 * refused, naming the entry), by tar or unzip, which keep the files' times.
 */
export async function extractCheckedArchive(source: string, name: string, dir: string, limits: ArchiveLimits, field: string): Promise<void> {
  await checkSubmissionArchive(source, name, limits, field);
  const head = Buffer.alloc(4);
  const fd = fs.openSync(source, "r");
  try {
    fs.readSync(fd, head, 0, 4, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head[0] === 0x50 && head[1] === 0x4b) execFileSync("unzip", ["-q", "-o", source, "-d", dir], { stdio: "pipe" });
  else execFileSync("tar", ["-xf", source, "-C", dir, "--no-same-owner"], { stdio: "pipe" });
}
