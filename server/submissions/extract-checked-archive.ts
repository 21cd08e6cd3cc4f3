import "server-only";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { checkSubmissionArchive, type ArchiveLimits } from "./archive";
import { checkUnpackedTree } from "./upload-tree";

/**
 * Extracts an archive (.tar.gz, .tar, .zip) into `dir` once the upload checks passed on every
 * entry (the path rule of `lib/files/entry-path.ts`: no `..`, no absolute names, links only
 * pointing down; no devices; no bombs: the whole archive is refused, naming the entry), by tar or
 * unzip, which keep the files' times; then the tree on disk is held to the same rule, since tar
 * and unzip parse the archive themselves. A refusal or a failed extraction is a 400 and leaves
 * `dir` empty.
 */
export async function extractCheckedArchive(
  source: string,
  name: string,
  dir: string,
  limits: ArchiveLimits,
  field: string,
): Promise<void> {
  await checkSubmissionArchive(source, name, limits, field);
  const head = Buffer.alloc(4);
  const fd = fs.openSync(source, "r");
  try {
    fs.readSync(fd, head, 0, 4, 0);
  } finally {
    fs.closeSync(fd);
  }
  try {
    try {
      if (head[0] === 0x50 && head[1] === 0x4b)
        execFileSync("unzip", ["-q", "-o", source, "-d", dir], { stdio: "pipe" });
      else
        execFileSync("tar", ["-xf", source, "-C", dir, "--no-same-owner", "--no-same-permissions"], { stdio: "pipe" });
    } catch (err) {
      const said =
        String((err as { stderr?: Buffer }).stderr ?? "")
          .trim()
          .split("\n")[0] ?? "";
      const shown = said.replaceAll(source, name).slice(0, 300);
      throw new AppError("bad_request", `${name} could not be extracted${shown ? `: ${shown}` : ""}`, [
        { path: field, message: "could not be extracted" },
      ]);
    }
    checkUnpackedTree(dir, name, field);
  } catch (err) {
    for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
    throw err;
  }
}
