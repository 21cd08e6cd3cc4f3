import "server-only";
import type { Executor, Store } from "@/db/client";
import { getPaperById } from "@/db/queries/papers";
import { AppError } from "@/lib/errors";
import { parseBlacklist, parsePaperConfig } from "@/lib/rubric/paper-folder";
import { formatIssue, parseRubricJson } from "@/lib/rubric/paperbench";
import type { RubricStats, RubricWarning } from "@/lib/rubric/types";
import { paperIdSchema } from "@/lib/papers/schemas";
import { replaceNul } from "@/lib/text";
import { announceRubricRevision } from "@/server/live/rubric-feed";
import { replaceRubricTree } from "@/server/rubrics/replace-rubric-tree";
import { addPaper } from "./add-paper";
import { editPaper } from "./edit-paper";

/** A PaperBench paper folder as uploaded or read from disk; only the rubric is required. */
export interface PaperFolderFiles {
  rubric: string;
  config?: string;
  blacklist?: string;
  paperMarkdown?: string;
  addendum?: string;
  judgeAddendum?: string;
}

export interface ImportResult {
  paperId: string;
  createdPaper: boolean;
  replaced: boolean;
  revision: number;
  stats: RubricStats;
  warnings: RubricWarning[];
  /** Files kept with a change (NULs replaced), and what changed; absent when none was. */
  notes?: { path: string; reason: string }[];
}

/** Parses a rubric or throws a 422 naming every problem by JSON path. Nothing is written. */
export function parseRubricOrThrow(text: string, fileLabel = "rubric.json") {
  const parsed = parseRubricJson(text);
  if (!parsed.ok) {
    const shown = parsed.errors.slice(0, 3).map(formatIssue).join("; ");
    const more = parsed.errors.length > 3 ? ` (and ${parsed.errors.length - 3} more)` : "";
    throw new AppError("invalid_rubric", `${fileLabel} is not a valid rubric: ${shown}${more}`, parsed.errors);
  }
  return parsed;
}

/**
 * Replaces the rubric of an existing paper with an uploaded rubric.json, as one new revision, and
 * tells everyone following the rubric.
 */
export async function importRubricIntoPaper(
  store: Store,
  input: { paperId: string; rubricText: string; userId: string | null; source: string },
): Promise<ImportResult> {
  const parsed = parseRubricOrThrow(input.rubricText);
  const result = await store.db.transaction((tx) =>
    replaceRubricTree(tx, { paperId: input.paperId, tree: parsed.tree, userId: input.userId, source: input.source }),
  );
  await announceRubricRevision(store, input.paperId, result.revision);
  return {
    paperId: input.paperId,
    createdPaper: false,
    replaced: result.replaced,
    revision: result.revision,
    stats: parsed.stats,
    warnings: parsed.warnings,
  };
}

export interface PaperFolderImport {
  files: PaperFolderFiles;
  paperId?: string;
  folderName?: string;
  userId: string | null;
  source: string;
}

/**
 * Imports a paper folder: creates the paper when it does not exist (id from `paperId`, else
 * config.yaml, else the folder name), updates the fields the folder carries, and replaces the
 * rubric. Every file is parsed before anything is written, and the writes share one transaction.
 * Everyone following the rubric hears of the new revision (the studio's upload and the CLI alike).
 */
export async function importPaperFolder(store: Store, input: PaperFolderImport): Promise<ImportResult> {
  const result = await store.db.transaction((tx) => importPaperFolderInTransaction(tx, input));
  await announceRubricRevision(store, result.paperId, result.revision);
  return result;
}

/** The import inside the caller's transaction (the demo seed), announcing nothing. */
export async function importPaperFolderInTransaction(tx: Executor, input: PaperFolderImport): Promise<ImportResult> {
  const parsed = parseRubricOrThrow(input.files.rubric);
  const config = input.files.config !== undefined ? parseConfigOrThrow(input.files.config) : {};
  // The paper's texts are kept whatever they hold: a NUL (which the database cannot store) becomes U+FFFD, and is reported.
  const notes: { path: string; reason: string }[] = [];
  const kept = (field: "blacklist" | "paperMarkdown" | "addendum" | "judgeAddendum", fileName: string): string | undefined => {
    const raw = input.files[field];
    if (raw === undefined) return undefined;
    const cleaned = replaceNul(raw);
    if (cleaned.replaced > 0) {
      const what = cleaned.replaced === 1 ? "1 NUL character" : `${cleaned.replaced} NUL characters`;
      notes.push({ path: fileName, reason: `kept with ${what} (U+0000) replaced by U+FFFD` });
    }
    return cleaned.text;
  };
  const texts = {
    blacklist: kept("blacklist", "blacklist.txt"),
    paperMarkdown: kept("paperMarkdown", "paper.md"),
    addendum: kept("addendum", "addendum.md"),
    judgeAddendum: kept("judgeAddendum", "judge_addendum.md"),
  };
  const blacklist = texts.blacklist !== undefined ? parseBlacklist(texts.blacklist) : undefined;
  const idSource = input.paperId ? "--paper" : config.id ? "config.yaml id" : "folder name";
  const rawId = input.paperId ?? config.id ?? input.folderName;
  if (!rawId) throw new AppError("bad_request", "Name the paper: give a paper id, or a config.yaml with an id");
  const idCheck = paperIdSchema.safeParse(rawId);
  if (!idCheck.success) {
    throw new AppError("bad_request", `The paper id "${rawId}" (from the ${idSource}) ${idCheck.error.issues[0].message}`, [
      { path: "paperId", message: idCheck.error.issues[0].message },
    ]);
  }
  const paperId = idCheck.data;
  const fields = {
    ...(config.title ? { title: config.title } : {}),
    ...(blacklist ? { blacklist } : {}),
    ...(texts.paperMarkdown !== undefined ? { paperMarkdown: texts.paperMarkdown } : {}),
    ...(texts.addendum !== undefined ? { addendum: texts.addendum } : {}),
    ...(texts.judgeAddendum !== undefined ? { judgeAddendum: texts.judgeAddendum } : {}),
  };

  const existing = await getPaperById(tx, paperId);
  if (existing) {
    if (Object.keys(fields).length > 0) await editPaper(tx, paperId, fields);
  } else {
    await addPaper(
      tx,
      { id: paperId, title: paperId, paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [], ...fields },
      input.userId,
    );
  }
  const result = await replaceRubricTree(tx, { paperId, tree: parsed.tree, userId: input.userId, source: input.source });
  return {
    paperId,
    createdPaper: !existing,
    replaced: result.replaced,
    revision: result.revision,
    stats: parsed.stats,
    warnings: parsed.warnings,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

function parseConfigOrThrow(text: string) {
  try {
    return parsePaperConfig(text);
  } catch (err) {
    throw new AppError("invalid_rubric", `config.yaml: ${(err as Error).message}`, [
      { path: "config.yaml", message: (err as Error).message },
    ]);
  }
}
