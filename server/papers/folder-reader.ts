import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { PaperFolderFiles } from "./import";

/** File names of a PaperBench paper folder, mapped to the fields of an import. */
export const PAPER_FOLDER_FILES = {
  rubric: "rubric.json",
  config: "config.yaml",
  blacklist: "blacklist.txt",
  paperMarkdown: "paper.md",
  addendum: "addendum.md",
  judgeAddendum: "judge_addendum.md",
} as const satisfies Record<keyof PaperFolderFiles, string>;

/** Reads a paper folder from disk, or a lone rubric.json; files other than the rubric are optional. */
export function readPaperFolder(target: string): { files: PaperFolderFiles; folderName: string | undefined } {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) throw new Error(`${target}: no such file or directory`);
  if (stat.isFile()) return { files: { rubric: fs.readFileSync(target, "utf8") }, folderName: undefined };
  const read = (name: string) => {
    const file = path.join(target, name);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  };
  const rubric = read(PAPER_FOLDER_FILES.rubric);
  if (rubric === undefined) throw new Error(`${target}: the folder has no rubric.json`);
  const files: PaperFolderFiles = { rubric };
  for (const [field, name] of Object.entries(PAPER_FOLDER_FILES)) {
    if (field === "rubric") continue;
    const text = read(name);
    if (text !== undefined) files[field as Exclude<keyof PaperFolderFiles, "rubric">] = text;
  }
  return { files, folderName: path.basename(path.resolve(target)) };
}
