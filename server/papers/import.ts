import "server-only";
import type { Executor } from "@/db/client";
import { createPaper, getPaperById, updatePaper } from "@/db/queries/papers";
import { replaceRubricTree } from "@/db/queries/rubrics";
import { AppError } from "@/lib/errors";
import { parseBlacklist, parsePaperConfig } from "@/lib/rubric/paper-folder";
import { formatIssue, parseRubricJson } from "@/lib/rubric/paperbench";
import type { RubricStats, RubricWarning } from "@/lib/rubric/types";
import { paperIdSchema } from "@/lib/papers/schemas";

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

/** Replaces the rubric of an existing paper with an uploaded rubric.json, as one new revision. */
export async function importRubricIntoPaper(
  db: Executor,
  input: { paperId: string; rubricText: string; userId: string | null; source: string },
): Promise<ImportResult> {
  const parsed = parseRubricOrThrow(input.rubricText);
  const result = await replaceRubricTree(db, {
    paperId: input.paperId,
    tree: parsed.tree,
    userId: input.userId,
    source: input.source,
  });
  return {
    paperId: input.paperId,
    createdPaper: false,
    replaced: result.replaced,
    revision: result.revision,
    stats: parsed.stats,
    warnings: parsed.warnings,
  };
}

/**
 * Imports a paper folder: creates the paper when it does not exist (id from `paperId`, else
 * config.yaml, else the folder name), updates the fields the folder carries, and replaces the
 * rubric. Every file is parsed before anything is written, and the writes share one transaction.
 */
export async function importPaperFolder(
  db: Executor,
  input: { files: PaperFolderFiles; paperId?: string; folderName?: string; userId: string | null; source: string },
): Promise<ImportResult> {
  const parsed = parseRubricOrThrow(input.files.rubric);
  const config = input.files.config !== undefined ? parseConfigOrThrow(input.files.config) : {};
  const blacklist = input.files.blacklist !== undefined ? parseBlacklist(input.files.blacklist) : undefined;
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
    ...(input.files.paperMarkdown !== undefined ? { paperMarkdown: input.files.paperMarkdown } : {}),
    ...(input.files.addendum !== undefined ? { addendum: input.files.addendum } : {}),
    ...(input.files.judgeAddendum !== undefined ? { judgeAddendum: input.files.judgeAddendum } : {}),
  };

  return db.transaction(async (tx) => {
    const existing = await getPaperById(tx, paperId);
    if (existing) {
      if (Object.keys(fields).length > 0) await updatePaper(tx, paperId, fields);
    } else {
      await createPaper(
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
    };
  });
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
