/**
 * Which submission files a criterion's judge may read, by category (SimpleJudge's rule): docs and
 * code for Code Development and Code Execution; docs and the tables reproduction touched
 * (modified at or after `reproduce.log.creation_time`) for Result Analysis; all three for a
 * subtree graded at the max depth. Environments and VCS folders are never read. Every list is
 * PaperBench's or a superset of it (`.ipynb`, `.cu` added), so efficient mode shows at least the
 * files paperbench mode can.
 */
import { CREATION_TIME_FILE } from "@/lib/jobs/outputs-index";
import type { SubmissionFileInfo } from "../engine-contract";

export const REPRODUCE_SH = "reproduce.sh";
export const REPRODUCE_LOG = "reproduce.log";
export { CREATION_TIME_FILE };

/**
 * Folders whose files are never candidates (a path segment equal to one; `*.egg-info` too). Only
 * folders PaperBench also leaves out (it drops any folder whose name *contains* one of these), so
 * efficient mode's candidates are never fewer than PaperBench's: caches such as `.tox` or
 * `.mypy_cache`, which PaperBench walks, stay candidates.
 */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  "venv",
  ".venv",
  ".env",
  "wandb",
  ".git",
  ".github",
  "__pycache__",
  "node_modules",
]);

export const DOC_EXTENSIONS: ReadonlySet<string> = new Set([".md", ".txt", ".rst"]);
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  ".py",
  ".R",
  ".Rmd",
  ".m",
  ".jl",
  ".ipynb",
  ".c",
  ".h",
  ".cpp",
  ".hpp",
  ".cc",
  ".cxx",
  ".hxx",
  ".cu",
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
export const TABLE_EXTENSIONS: ReadonlySet<string> = new Set([
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

/** Whether some category's criteria may read a file with this extension. */
export function isCandidateExtension(ext: string): boolean {
  return DOC_EXTENSIONS.has(ext) || CODE_EXTENSIONS.has(ext) || TABLE_EXTENSIONS.has(ext);
}

/** The categories that choose files; a leaf with another or no category reads as a subtree does. */
export const FILE_CATEGORIES = ["Code Development", "Code Execution", "Result Analysis", "Subtree"] as const;
export type FileCategory = (typeof FILE_CATEGORIES)[number];

export function fileCategoryOf(taskCategory: string | null): FileCategory {
  return (FILE_CATEGORIES as readonly string[]).includes(taskCategory ?? "")
    ? (taskCategory as FileCategory)
    : "Subtree";
}

export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot);
}

export function isSkippedPath(path: string): boolean {
  const segments = path.split("/");
  for (let i = 0; i < segments.length - 1; i++) {
    if (SKIPPED_DIRS.has(segments[i]) || segments[i].endsWith(".egg-info")) return true;
  }
  return false;
}

/** Written by reproduction: at or after the creation time, to the second (archives keep whole seconds). */
export function touchedByReproduction(file: SubmissionFileInfo, creationMs: number | null): boolean {
  if (creationMs === null || file.mtimeMs === null) return false;
  return Math.floor(file.mtimeMs / 1000) >= Math.floor(creationMs / 1000);
}

export interface SelectionContext {
  /**
   * When reproduction started: `reproduce.log.creation_time`, else reproduce.log's own mtime
   * (PaperBench's fallback); null when neither exists: nothing counts as touched.
   */
  creationMs: number | null;
  /** Paths shown on their own (reproduce.sh, reproduce.log), so not again among the files. */
  shownApart: ReadonlySet<string>;
}

/** The candidate files of a category, in path order. */
export function candidateFiles(
  files: readonly SubmissionFileInfo[],
  category: FileCategory,
  ctx: SelectionContext,
): SubmissionFileInfo[] {
  const out = files.filter((file) => {
    if (ctx.shownApart.has(file.path) || file.path === CREATION_TIME_FILE || isSkippedPath(file.path)) return false;
    const ext = extensionOf(file.path);
    const doc = DOC_EXTENSIONS.has(ext);
    switch (category) {
      case "Result Analysis":
        return doc || (TABLE_EXTENSIONS.has(ext) && touchedByReproduction(file, ctx.creationMs));
      case "Subtree":
        return (
          doc || CODE_EXTENSIONS.has(ext) || (TABLE_EXTENSIONS.has(ext) && touchedByReproduction(file, ctx.creationMs))
        );
      default:
        return doc || CODE_EXTENSIONS.has(ext);
    }
  });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Whether reproduction wrote any file a Result Analysis criterion could read; when it wrote none
 * every Result Analysis leaf scores 0 without a call (there are no results to analyse).
 */
export function reproductionTouchedFiles(files: readonly SubmissionFileInfo[], ctx: SelectionContext): boolean {
  return candidateFiles(files, "Result Analysis", ctx).some((f) => touchedByReproduction(f, ctx.creationMs));
}

/** A `tree`-like drawing of paths (one line per folder and file). */
export function drawFileTree(paths: readonly string[]): string {
  type Dir = Map<string, Dir>;
  const root: Dir = new Map();
  for (const p of paths) {
    let dir = root;
    for (const part of p.split("/")) {
      if (!dir.has(part)) dir.set(part, new Map());
      dir = dir.get(part)!;
    }
  }
  const lines: string[] = [];
  const draw = (dir: Dir, prefix: string) => {
    const entries = [...dir.entries()];
    entries.forEach(([name, sub], i) => {
      const last = i === entries.length - 1;
      lines.push(`${prefix}${last ? "└── " : "├── "}${name}`);
      if (sub.size > 0) draw(sub, prefix + (last ? "    " : "│   "));
    });
  };
  draw(root, "");
  return lines.join("\n");
}
