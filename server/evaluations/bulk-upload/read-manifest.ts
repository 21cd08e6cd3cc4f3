import "server-only";
import fs from "node:fs";
import path from "node:path";
import { AppError, type ErrorDetail } from "@/lib/errors";
import { parseManifest } from "@/lib/evaluations/bulk-manifest";
import { findInTree, readRealFile } from "@/server/submissions/upload-tree";
import type { BulkPlan, PlannedCell, Problems } from "./plan";

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * A manifest CSV (`paper_id,run,path`, lib/evaluations/bulk-manifest.ts): each row's path, relative
 * to the manifest's folder (absolute too when `allowAbsolute`: the CLI on the studio's machine),
 * must name an archive or a folder inside that folder, under the path rule and through no link
 * (`findInTree`). Problems name the line and column.
 */
export function readManifest(file: string, options: { allowAbsolute: boolean }, problems: Problems): BulkPlan {
  const root = path.dirname(file);
  const name = path.basename(file);
  let text: string;
  try {
    text = readRealFile(file, name, MAX_MANIFEST_BYTES);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    problems.add(name, (err.details[0] as ErrorDetail | undefined)?.message ?? err.message);
    return { layout: "manifest", cells: [], skipped: [] };
  }
  const { rows, issues } = parseManifest(text, options);
  for (const issue of issues)
    problems.add(
      `${name}:${issue.line}:${issue.column}`,
      `line ${issue.line}, column ${issue.column}: ${issue.message}`,
    );
  const cells: PlannedCell[] = [];
  for (const row of rows) {
    const where = `${name}:${row.line}:path`;
    const found = path.isAbsolute(row.path) ? operatorPath(row.path) : findInTree(root, row.path);
    if ("problem" in found) {
      problems.add(where, `"${row.path}" ${found.problem}`);
      continue;
    }
    cells.push({
      paperId: row.paperId,
      run: row.run,
      where: `${name}:${row.line} (${row.path})`,
      source: { kind: found.kind === "directory" ? "directory" : "archive", path: found.path },
    });
  }
  return { layout: "manifest", cells, skipped: [] };
}

/** An absolute path in the CLI's own manifest: the operator's file or folder on the studio's machine, as they named it. */
function operatorPath(file: string): { path: string; kind: "file" | "directory" } | { problem: string } {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat || !(stat.isFile() || stat.isDirectory())) return { problem: "is not a file or folder" };
  return { path: file, kind: stat.isDirectory() ? "directory" : "file" };
}
