/**
 * SimpleJudge's view of the submission's files (paperbench/judge/simple.py): which files each task
 * category may be shown (`_get_whitelisted_files`), the tree drawn for the ranking call
 * (`_create_tree_structure`), and whether reproduction touched anything a Result Analysis leaf
 * could read. The walk is os.walk's (top-down; a folder's files in listing order, then its
 * folders). Pure: the listing comes in as `SubmissionDirEntry`s.
 */
import type { SubmissionDirEntry } from "../engine-contract";
import { pythonSuffix } from "./path-rules";

export type PbCategory = "Code Development" | "Code Execution" | "Result Analysis" | "Subtree";
export const PB_CATEGORIES: readonly PbCategory[] = [
  "Code Development",
  "Code Execution",
  "Result Analysis",
  "Subtree",
];

const BLACKLISTED_BASE_DIRS = [
  "venv",
  ".venv",
  ".env",
  "wandb",
  ".egg-info",
  ".git",
  ".github",
  "__pycache__",
  "node_modules",
];
const DOCS = new Set([".md", ".txt", ".rst"]);
const CODE = new Set([
  ".py",
  ".R",
  ".Rmd",
  ".m",
  ".jl",
  ".c",
  ".h",
  ".cpp",
  ".hpp",
  ".cc",
  ".cxx",
  ".hxx",
  ".java",
  ".js",
  ".ts",
  ".scala",
  ".go",
  ".rs",
  ".sh",
  ".config",
  ".cfg",
  ".json",
  ".yaml",
  ".yml",
  ".toml",
  ".ini",
]);
const TABLES = new Set([
  ".csv",
  ".tsv",
  ".psv",
  ".json",
  ".jsonl",
  ".html",
  ".xml",
  ".yaml",
  ".yml",
  ".toml",
  ".arff",
  ".tex",
  ".svm",
  ".libsvm",
]);

function extensionsOf(category: string): Set<string> {
  if (category === "Result Analysis") return new Set([...DOCS, ...TABLES]);
  if (category === "Subtree") return new Set([...DOCS, ...CODE, ...TABLES]);
  return new Set([...DOCS, ...CODE]);
}

/** `datetime.fromtimestamp(t)` at its resolution (microseconds), so comparisons agree with Python's. */
export function toMicros(seconds: number): number {
  return Math.round(seconds * 1e6);
}

export interface WhitelistResult {
  /** Relative paths, walk order. */
  files: string[];
  /** Result Analysis only: every whitelisted file is older than the log's creation (`all([])` is true). */
  allOlderThanCreation: boolean;
}

/**
 * `_get_whitelisted_files(category, max_file_depth)`. The blacklist matches a substring of any part
 * of the folder's path relative to the submission (PaperBench matches the absolute path's parts:
 * a submission kept under, say, `/data/venvs/` would have every file excluded there).
 */
export function whitelistedFiles(
  walk: readonly SubmissionDirEntry[],
  category: string,
  creationMicros: number,
  maxFileDepth: number | null,
): WhitelistResult {
  const byDir = new Map(walk.map((d) => [d.dir, d]));
  const extensions = extensionsOf(category);
  const files: string[] = [];
  const mtimes: number[] = [];
  const visit = (dir: string) => {
    const entry = byDir.get(dir);
    if (!entry) return;
    const parts = dir === "" ? [] : dir.split("/");
    const stop = maxFileDepth !== null && parts.length >= maxFileDepth;
    const blacklisted = parts.some((part) => BLACKLISTED_BASE_DIRS.some((b) => part.includes(b)));
    if (!blacklisted) {
      for (const f of entry.files) {
        const suffix = pythonSuffix(f.name);
        if (!extensions.has(suffix)) continue;
        if (Number.isNaN(f.mtime)) continue;
        const newer = toMicros(f.mtime) >= creationMicros;
        const keep =
          category === "Result Analysis"
            ? DOCS.has(suffix) || newer
            : category === "Subtree"
              ? DOCS.has(suffix) || CODE.has(suffix) || newer
              : true;
        if (!keep) continue;
        files.push(dir === "" ? f.name : `${dir}/${f.name}`);
        mtimes.push(f.mtime);
      }
    }
    if (stop) return;
    for (const d of entry.dirs) visit(dir === "" ? d : `${dir}/${d}`);
  };
  visit("");
  return { files, allOlderThanCreation: mtimes.every((m) => toMicros(m) < creationMicros) };
}

/** `_create_tree_structure`: `├── `/`└── ` lines, parts in first-seen order. */
export function createTreeStructure(paths: readonly string[]): string {
  type Tree = Map<string, Tree>;
  const root: Tree = new Map();
  for (const p of paths) {
    let current = root;
    for (const part of p.split("/")) {
      if (!current.has(part)) current.set(part, new Map());
      current = current.get(part)!;
    }
  }
  const build = (node: Tree, prefix: string): string => {
    const lines: string[] = [];
    const items = [...node.entries()];
    items.forEach(([name, subtree], i) => {
      const last = i === items.length - 1;
      lines.push(`${prefix}${last ? "└── " : "├── "}${name}`);
      if (subtree.size > 0) lines.push(build(subtree, prefix + (last ? "    " : "│   ")));
    });
    return lines.join("\n");
  };
  return build(root, "");
}
