/**
 * The manifest of a bulk upload into an evaluation: a CSV with the header `paper_id,run,path`
 * (columns in any order), one row per cell. `path` names a submission archive (.tar.gz, .tar,
 * .zip) or a submission folder, relative to the folder the manifest is in (the upload's root);
 * an absolute path is allowed only where the caller says so (the CLI on the studio's own machine).
 * Every problem names its line (1-based, the header is line 1) and column.
 */

import { checkEntryPath } from "@/lib/files/entry-path";

export const MANIFEST_FILE = "manifest.csv";
export const MANIFEST_COLUMNS = ["paper_id", "run", "path"] as const;
export const MAX_MANIFEST_ROWS = 10_000;

export interface ManifestRow {
  line: number;
  paperId: string;
  run: number;
  /** As written, `/`-separated; relative unless absolute paths are allowed. */
  path: string;
}

export interface ManifestIssue {
  line: number;
  column: string;
  message: string;
}

/** RFC 4180 records with the line each starts on (quoted fields may hold commas, quotes and newlines). */
export function parseCsvRecords(text: string): { line: number; fields: string[] }[] | ManifestIssue {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let start = 1;
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0].trim() === "")) records.push({ line: start, fields });
    fields = [];
    field = "";
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
  }
  if (quoted) return { line: start, column: "(row)", message: "a quoted field is not closed" };
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}

/**
 * Whether a manifest path stays inside the upload root: the one path rule (`lib/files/entry-path.ts`:
 * relative, no `..` segment, no control characters), `/` between folders; an absolute path only
 * where the caller allows it (the CLI on the studio's machine, naming the operator's own files).
 */
export function manifestPathIssue(value: string, allowAbsolute: boolean): string | null {
  if (value.includes("\\")) return "must use / between folders";
  if (value.startsWith("/")) {
    if (!allowAbsolute)
      return "must be relative to the upload's root (absolute paths only from the CLI on the studio's machine)";
    return value.includes("\u0000") ? "must not contain NUL" : null;
  }
  const checked = checkEntryPath(value);
  return checked.ok ? null : checked.reason;
}

/** The rows of a manifest, or every problem found (none written until all are fixed). */
export function parseManifest(
  text: string,
  options: { allowAbsolute: boolean },
): { rows: ManifestRow[]; issues: ManifestIssue[] } {
  const records = parseCsvRecords(text);
  if (!Array.isArray(records)) return { rows: [], issues: [records] };
  if (records.length === 0)
    return {
      rows: [],
      issues: [
        { line: 1, column: "(header)", message: `is missing: the first line must be ${MANIFEST_COLUMNS.join(",")}` },
      ],
    };
  const issues: ManifestIssue[] = [];
  const header = records[0].fields.map((f) => f.trim());
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!(MANIFEST_COLUMNS as readonly string[]).includes(name))
      issues.push({
        line: records[0].line,
        column: name || `#${i + 1}`,
        message: `is not a column of the manifest (${MANIFEST_COLUMNS.join(", ")})`,
      });
    else if (index.has(name))
      issues.push({ line: records[0].line, column: name, message: "appears twice in the header" });
    else index.set(name, i);
  });
  for (const name of MANIFEST_COLUMNS)
    if (!index.has(name)) issues.push({ line: records[0].line, column: name, message: "is missing from the header" });
  if (issues.length > 0) return { rows: [], issues };
  if (records.length - 1 > MAX_MANIFEST_ROWS)
    return {
      rows: [],
      issues: [
        {
          line: records[MAX_MANIFEST_ROWS + 1].line,
          column: "(row)",
          message: `the manifest has more than ${MAX_MANIFEST_ROWS} rows`,
        },
      ],
    };

  const rows: ManifestRow[] = [];
  for (const { line, fields } of records.slice(1)) {
    if (fields.length !== header.length) {
      issues.push({ line, column: "(row)", message: `has ${fields.length} fields, the header ${header.length}` });
      continue;
    }
    const get = (name: (typeof MANIFEST_COLUMNS)[number]) => fields[index.get(name)!].trim();
    const paperId = get("paper_id");
    const runText = get("run");
    const filePath = get("path");
    const before = issues.length;
    if (!paperId) issues.push({ line, column: "paper_id", message: "is required" });
    else if (paperId.includes("\u0000") || paperId.length > 200)
      issues.push({ line, column: "paper_id", message: "must be a paper id" });
    if (!/^[1-9][0-9]{0,5}$/.test(runText))
      issues.push({ line, column: "run", message: `must be a whole number from 1 (not "${runText.slice(0, 20)}")` });
    if (!filePath) issues.push({ line, column: "path", message: "is required" });
    else {
      const problem = manifestPathIssue(filePath, options.allowAbsolute);
      if (problem) issues.push({ line, column: "path", message: problem });
    }
    if (issues.length === before)
      rows.push({ line, paperId, run: Number(runText), path: filePath.replace(/\/+$/, "") || "/" });
  }
  return { rows, issues };
}
