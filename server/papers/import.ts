import "server-only";
import type { Executor, Store } from "@/db/client";
import { getPaperById } from "@/db/queries/papers";
import { countNodeRows, getLiveNodeRows, getRubricByPaperId, lockOrCreateRubric } from "@/db/queries/rubrics";
import { AppError } from "@/lib/errors";
import { diffRubrics, type RubricDiff } from "@/lib/rubric/diff";
import { parseBlacklist, parsePaperConfig } from "@/lib/rubric/paper-folder";
import { formatIssue, parseRubricJson } from "@/lib/rubric/paperbench";
import type { RubricStats, RubricWarning } from "@/lib/rubric/types";
import type { ImportPreview } from "@/lib/papers/import-preview";
import { paperIdSchema } from "@/lib/papers/schemas";
import { treeToRows, type NodeRow } from "@/lib/rubric/tree-rows";
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

/**
 * Whether an import may replace a rubric that has nodes. `any`: whatever is there (the CLI, the
 * seed, a script that says `replace=true`); `{ expectedRevision }`: only the revision the user saw
 * the changes against (a newer edit answers 409 instead of being lost); `never`: an upload that
 * confirmed nothing (409 when there is a rubric to lose).
 */
export type ReplacePolicy = "any" | "never" | { expectedRevision: number };

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
  /** Default `any`: the studio's uploads pass what the request confirmed. */
  replace?: ReplacePolicy;
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
  const folder = readFolder(input);
  const { paperId, fields } = folder;
  const existing = await getPaperById(tx, paperId);
  if (existing) {
    // Checked under the rubric's row lock, so no edit can slip in between the check and the replace.
    const rubric = await lockOrCreateRubric(tx, paperId);
    assertMayReplace(input.replace ?? "any", paperId, rubric.revision, await countNodeRows(tx, rubric.id));
    if (Object.keys(fields).length > 0) await editPaper(tx, paperId, fields);
  } else {
    await addPaper(
      tx,
      { id: paperId, title: paperId, paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [], ...fields },
      input.userId,
    );
  }
  const result = await replaceRubricTree(tx, {
    paperId,
    tree: folder.parsed.tree,
    userId: input.userId,
    source: input.source,
  });
  return {
    paperId,
    createdPaper: !existing,
    replaced: result.replaced,
    revision: result.revision,
    stats: folder.parsed.stats,
    warnings: folder.parsed.warnings,
    ...(folder.notes.length > 0 ? { notes: folder.notes } : {}),
  };
}

/**
 * What importing the folder would change, against the live paper and rubric; writes nothing. The
 * files are checked as the import checks them, so a file the import refuses is refused here too.
 */
export async function previewPaperFolderImport(
  store: Store,
  input: Omit<PaperFolderImport, "userId" | "source" | "replace">,
): Promise<ImportPreview> {
  const folder = readFolder(input);
  const { paperId, fields, parsed } = folder;
  const paper = await getPaperById(store.db, paperId);
  const rubric = paper ? await getRubricByPaperId(store.db, paperId) : null;
  const before = rubric ? await getLiveNodeRows(store.db, rubric.id) : [];
  const replaces = before.length > 0;
  let diff: RubricDiff | null = null;
  const parentRows: ImportPreview["parentRows"] = { before: [], after: [] };
  if (replaces) {
    const after = treeToRows(parsed.tree);
    diff = diffRubrics(before, after);
    parentRows.before = rowsNamed(before, [...diff.removed, ...diff.moved.map((m) => m.before)]);
    parentRows.after = rowsNamed(after, [...diff.added, ...diff.moved.map((m) => m.after)]);
  }
  const paperFields = paper
    ? (Object.keys(fields) as (keyof typeof fields)[])
        .filter((f) => JSON.stringify(fields[f]) !== JSON.stringify(paper[f]))
        .map((f) => FIELD_LABELS[f])
    : [];
  return {
    paperId,
    createsPaper: !paper,
    revision: rubric?.revision ?? 0,
    replaces,
    diff,
    parentRows,
    paperFields,
    stats: parsed.stats,
    warnings: parsed.warnings,
    ...(folder.notes.length > 0 ? { notes: folder.notes } : {}),
  };
}

const FIELD_LABELS = {
  title: "title",
  blacklist: "blacklist",
  paperMarkdown: "paper text",
  addendum: "addendum",
  judgeAddendum: "judge addendum",
} as const;

/** The parents of `lines` among `rows`: what a diff line says it sits under. */
function rowsNamed(rows: readonly NodeRow[], lines: readonly NodeRow[]): NodeRow[] {
  const wanted = new Set(lines.map((r) => r.parentKey));
  return rows.filter((r) => wanted.has(r.key));
}

function assertMayReplace(policy: ReplacePolicy, paperId: string, revision: number, nodes: number): void {
  if (policy === "any" || nodes === 0) return;
  if (policy === "never") {
    throw new AppError(
      "conflict",
      `The paper ${paperId} already has a rubric (revision ${revision}): look at what the import changes and confirm it to replace the rubric`,
      [{ path: "expectedRevision", message: `is required to replace revision ${revision}` }],
    );
  }
  if (policy.expectedRevision !== revision) {
    throw new AppError(
      "conflict",
      `The rubric of ${paperId} changed since its changes were shown (revision ${policy.expectedRevision}, now ${revision}): look at the changes again`,
      [{ path: "expectedRevision", message: `is ${policy.expectedRevision}, the rubric is at revision ${revision}` }],
    );
  }
}

/** Every file of the folder parsed and checked, and the paper id chosen; nothing is read from the database. */
function readFolder(input: Pick<PaperFolderImport, "files" | "paperId" | "folderName">) {
  const parsed = parseRubricOrThrow(input.files.rubric);
  const config = input.files.config !== undefined ? parseConfigOrThrow(input.files.config) : {};
  // The paper's texts are kept whatever they hold: a NUL (which the database cannot store) becomes U+FFFD, and is reported.
  const notes: { path: string; reason: string }[] = [];
  const kept = (
    field: "blacklist" | "paperMarkdown" | "addendum" | "judgeAddendum",
    fileName: string,
  ): string | undefined => {
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
    throw new AppError(
      "bad_request",
      `The paper id "${rawId}" (from the ${idSource}) ${idCheck.error.issues[0].message}`,
      [{ path: "paperId", message: idCheck.error.issues[0].message }],
    );
  }
  const fields = {
    ...(config.title ? { title: config.title } : {}),
    ...(blacklist ? { blacklist } : {}),
    ...(texts.paperMarkdown !== undefined ? { paperMarkdown: texts.paperMarkdown } : {}),
    ...(texts.addendum !== undefined ? { addendum: texts.addendum } : {}),
    ...(texts.judgeAddendum !== undefined ? { judgeAddendum: texts.judgeAddendum } : {}),
  };
  return { parsed, paperId: idCheck.data, fields, notes };
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
