import "server-only";
import fs from "node:fs";
import path from "node:path";
import { parseManifest } from "@/lib/evaluations/bulk-manifest";
import type { BulkPlan, PlannedCell, Problems } from "./plan";

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * A manifest CSV (`paper_id,run,path`, lib/evaluations/bulk-manifest.ts): each row's path, relative
 * to the manifest's folder (absolute too when `allowAbsolute`: the CLI on the studio's machine),
 * must name an archive or a folder inside that folder. Problems name the line and column.
 */
export function readManifest(file: string, options: { allowAbsolute: boolean }, problems: Problems): BulkPlan {
  const root = path.dirname(file);
  const name = path.basename(file);
  const size = fs.statSync(file).size;
  if (size > MAX_MANIFEST_BYTES) {
    problems.add(name, `is ${size} bytes, more than ${MAX_MANIFEST_BYTES}`);
    return { layout: "manifest", cells: [], skipped: [] };
  }
  const { rows, issues } = parseManifest(fs.readFileSync(file, "utf8"), options);
  for (const issue of issues) problems.add(`${name}:${issue.line}:${issue.column}`, `line ${issue.line}, column ${issue.column}: ${issue.message}`);
  const realRoot = fs.realpathSync(root);
  const cells: PlannedCell[] = [];
  for (const row of rows) {
    const where = `${name}:${row.line}:path`;
    const target = path.isAbsolute(row.path) ? row.path : path.join(root, row.path);
    const stat = fs.statSync(target, { throwIfNoEntry: false });
    if (!stat || !(stat.isFile() || stat.isDirectory())) {
      problems.add(where, `"${row.path}" is not a file or folder in the upload`);
      continue;
    }
    // A relative path must stay in the upload, links included.
    if (!path.isAbsolute(row.path)) {
      const rel = path.relative(realRoot, fs.realpathSync(target));
      if (rel.startsWith("..") || path.isAbsolute(rel)) {
        problems.add(where, `"${row.path}" leads out of the upload`);
        continue;
      }
    }
    cells.push({ paperId: row.paperId, run: row.run, where: `${name}:${row.line} (${row.path})`, source: { kind: stat.isDirectory() ? "directory" : "archive", path: target } });
  }
  return { layout: "manifest", cells, skipped: [] };
}
