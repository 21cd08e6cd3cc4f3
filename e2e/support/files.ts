import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pythonJsonString } from "../../lib/rubric/python-json";
import type { RubricNode } from "../../lib/rubric/types";

/** The repository root (the package is an ES module: no __dirname). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The demo paper's rubric.json, the file the seed imports. */
export const DEMO_RUBRIC_PATH = path.join(REPO_ROOT, "rubrics", "demo", "rubric.json");

export function readDemoRubric(): { bytes: Buffer; tree: RubricJson } {
  const bytes = fs.readFileSync(DEMO_RUBRIC_PATH);
  return { bytes, tree: JSON.parse(bytes.toString("utf8")) as RubricJson };
}

/** The PaperBench rubric shape, from the studio's own format module. */
export type RubricJson = RubricNode;

/** Every requirement text of a tree, depth first. */
export function allRequirements(tree: RubricJson): string[] {
  return [tree.requirements, ...tree.sub_tasks.flatMap(allRequirements)];
}

/** The first leaf in depth-first order, with its JSON path (`sub_tasks[0].sub_tasks[1]`). */
export function firstLeaf(tree: RubricJson, at = ""): { node: RubricJson; path: string } {
  if (tree.sub_tasks.length === 0) return { node: tree, path: at };
  return firstLeaf(tree.sub_tasks[0], `${at ? `${at}.` : ""}sub_tasks[0]`);
}

/** Writes `text` to `file` (under the test's output directory) and returns the path. */
export function writeFile(file: string, text: string | Buffer): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** A rubric text is leaked if it appears raw, HTML-escaped or JSON-escaped (RSC payloads) in `body`. */
export function leakedRequirements(body: string, requirements: readonly string[]): string[] {
  const html = (s: string) =>
    s
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#x27;");
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  return requirements.filter((r) =>
    [r, html(r), json(r), pythonJsonString(r).slice(1, -1)].some((form) => body.includes(form)),
  );
}
