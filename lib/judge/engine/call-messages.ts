/**
 * The messages of each call a leaf may need, in both modes, shared by the grader and the
 * estimate (so an estimate counts the prompts that will be sent).
 *
 * Efficient: `[system] [paper] [addenda] [reproduce.sh] [reproduce.log, not for Code Development]
 * [category files, or the ranked files] [criterion] [answer form]`; its ranking call puts the
 * category's file tree where the files go.
 * (Paperbench mode's messages are SimpleJudge's, built in lib/judge/paperbench/simple-judge.ts.)
 */
import type { ChatMessage } from "../engine-contract";
import {
  answerReserve,
  countChatTokens,
  countMessageTokens,
  countTextTokens,
  decodeTokens,
  encodeText,
  messageTokensAtMost,
  promptBudget,
} from "./budget";
import type { FileCategory } from "./file-selection";
import {
  filesMessage,
  criterionMessage,
  freeFormAnswerMessage,
  parseSystemPrompt,
  rankingMessage,
  structuredAnswerMessage,
} from "./prompts";
import { prefixFor, type FormattedFile, type PreparedSubmission } from "./prepare-submission";
import type { PlannedLeaf } from "./rubric-plan";

/** Efficient mode fills the budget with as many ranked files as fit, up to this many. */
export const EFFICIENT_MAX_FILES = 50;

function criterion(leaf: PlannedLeaf): ChatMessage {
  return criterionMessage({ preceding: leaf.preceding, requirements: leaf.requirements, category: leaf.category });
}

function answerForm(leaf: PlannedLeaf, structured: boolean): ChatMessage {
  return structured ? structuredAnswerMessage(leaf.subtree) : freeFormAnswerMessage(leaf.subtree);
}

/** Efficient grading: the files message goes between the category's prefix and the leaf's own part. */
export function efficientGradeMessages(
  p: PreparedSubmission,
  leaf: PlannedLeaf,
  files: ChatMessage,
  structured: boolean,
): ChatMessage[] {
  return [...prefixFor(p, leaf.fileCategory).messages, files, criterion(leaf), answerForm(leaf, structured)];
}

export function efficientRankMessages(p: PreparedSubmission, leaf: PlannedLeaf): ChatMessage[] {
  return [
    ...prefixFor(p, leaf.fileCategory).messages,
    p.categories.get(leaf.fileCategory)!.treeMessage,
    criterion(leaf),
    rankingMessage(EFFICIENT_MAX_FILES, null),
  ];
}

export function parseMessages(answer: string, continuous: boolean): ChatMessage[] {
  return [
    { role: "system", content: parseSystemPrompt(continuous) },
    { role: "user", content: answer },
  ];
}

/**
 * Tokens left for the files message in a prompt made of `messagesWithoutFiles` plus it. The
 * prefixes' counts are known (prepared once), so only the leaf's own messages are counted.
 */
export function roomForFiles(p: PreparedSubmission, messagesWithoutFiles: readonly ChatMessage[]): number {
  return promptBudget(p.contextWindow) - promptTokens(p, messagesWithoutFiles);
}

/**
 * Tokens of a prompt that starts with one of the submission's prefixes (counted once, when it was
 * prepared): the prefix's count plus `countOwn` of each message after it. `countOwn` may bound the
 * count from above instead (`messageTokensAtMost`); a prompt with no known prefix is counted whole.
 */
function promptTokens(
  p: PreparedSubmission,
  messages: readonly ChatMessage[],
  countOwn: (model: string, message: ChatMessage) => number = countMessageTokens,
): number {
  for (const prefix of [p.logPrefix, p.basePrefix]) {
    const n = prefix.messages.length;
    if (messages.length >= n && prefix.messages.every((m, i) => messages[i] === m)) {
      return prefix.tokens + messages.slice(n).reduce((sum, m) => sum + countOwn(p.model, m), 0);
    }
  }
  return countChatTokens(p.model, messages);
}

/** SimpleJudge's `buffer_tokens` and the further 2k it keeps when filling files. */
export const PAPERBENCH_BUFFER_TOKENS = 10_000;
export const PAPERBENCH_FILES_BUFFER_TOKENS = 2_000;
/** The answer's room efficient mode never goes below when it matches PaperBench's room for files. */
export const MIN_ANSWER_TOKENS = 2_000;
/** SimpleJudge shows at most this many ranked files. */
const PAPERBENCH_MAX_FILES = 10;
/** Per shown file, what `<file path="…">…</file>` may cost beyond PaperBench's `<FILE:…>…</FILE:…>`. */
const TAG_SLACK_TOKENS = 8;

const envelopes = new Map<string, number>();
/** Tokens of an empty chosen-files message (its intro and framing), counted once per model and category. */
function chosenFilesEnvelope(model: string, category: FileCategory): number {
  const key = `${model}\u0000${category}`;
  let n = envelopes.get(key);
  if (n === undefined)
    envelopes.set(key, (n = countChatTokens(model, [filesMessage(category, "", true)]) - countChatTokens(model, [])));
  return n;
}

/**
 * PaperBench's room for a category's files (`_get_available_context` less 2k): the window less
 * the paper, the log (not for Code Development) and its buffers, whatever else the prompt holds.
 */
export function paperbenchFilesRoom(p: PreparedSubmission, category: FileCategory): number {
  const log = category === "Code Development" ? 0 : p.paperbenchLogTokens;
  return Math.max(
    0,
    p.contextWindow - p.paperbenchPaperTokens - log - PAPERBENCH_BUFFER_TOKENS - PAPERBENCH_FILES_BUFFER_TOKENS,
  );
}

/**
 * Efficient mode's room for a leaf's files: its own budget's, and never less than PaperBench's for
 * the same leaf (plus the envelope and tags of its files message), taking that from the answer's
 * reserve down to `MIN_ANSWER_TOKENS`, as PaperBench's own prompt does.
 */
export function filesRoom(
  p: PreparedSubmission,
  leaf: PlannedLeaf,
  messagesWithoutFiles: readonly ChatMessage[],
): number {
  return roomGiven(p, leaf, promptTokens(p, messagesWithoutFiles));
}

/**
 * Whether `filesTokens` surely fit in `filesRoom(p, leaf, messagesWithoutFiles)`, decided without
 * counting the leaf's own messages: counted at their `messageTokensAtMost`, the prompt is never
 * smaller and the room never larger than `filesRoom`'s, so files that fit that room fit the exact
 * one. False says only "count exactly". The leaf's own messages are new text for every leaf, and
 * counting them was most of the judge worker's own work on submissions whose files fit anyway.
 */
export function filesSurelyFit(
  p: PreparedSubmission,
  leaf: PlannedLeaf,
  messagesWithoutFiles: readonly ChatMessage[],
  filesTokens: number,
): boolean {
  return filesTokens <= roomGiven(p, leaf, promptTokens(p, messagesWithoutFiles, messageTokensAtMost));
}

/** `filesRoom` for a prompt of `used` tokens without the files; never larger for a larger `used`. */
function roomGiven(p: PreparedSubmission, leaf: PlannedLeaf, used: number): number {
  const own = promptBudget(p.contextWindow) - used;
  const envelope = chosenFilesEnvelope(p.model, leaf.fileCategory);
  const paperbench = paperbenchFilesRoom(p, leaf.fileCategory) + envelope + PAPERBENCH_MAX_FILES * TAG_SLACK_TOKENS;
  const ceiling = own + answerReserve(p.contextWindow) - MIN_ANSWER_TOKENS;
  return Math.max(own, Math.min(paperbench, ceiling));
}

/** The paths a ranking answer names, in its order, that are candidates (all when `candidates` is null; bullets, quotes and `./` ignored). */
export function rankedPaths(answer: string, candidates: readonly string[] | null): string[] {
  const known = candidates === null ? null : new Set(candidates);
  const out: string[] = [];
  for (const raw of answer.split("\n")) {
    const path = raw
      .trim()
      .replace(/^(\d+[.)]|[-*•])\s+/, "")
      .replace(/^[`'"]+|[`'"]+$/g, "")
      .replace(/^\.?\//, "");
    if (path !== "" && (known === null || known.has(path)) && !out.includes(path)) out.push(path);
  }
  return out;
}

/**
 * The files message for chosen files: in the given order, whole while they fit in `room` tokens,
 * the first that does not fit cut at a line to fill the rest (SimpleJudge's fill), then no more.
 * `plain`: PaperBench's content of each file, lines unnumbered (efficient mode's chosen files).
 */
export function fillFiles(
  p: PreparedSubmission,
  leaf: PlannedLeaf,
  order: readonly string[],
  room: number,
  maxFiles: number | null,
  plain = false,
  others: ReadonlyMap<string, FormattedFile> = new Map(),
): ChatMessage {
  const category = p.categories.get(leaf.fileCategory)!;
  const byPath = new Map([...others, ...category.files.map((f) => [f.path, f] as const)]);
  const envelope = countChatTokens(p.model, [filesMessage(leaf.fileCategory, "", true)]) - countChatTokens(p.model, []);
  let left = room - envelope;
  const parts: string[] = [];
  for (const path of order.slice(0, maxFiles ?? undefined)) {
    const file = byPath.get(path);
    if (!file) continue;
    const [text, tokens] = plain ? [file.plain, file.plainTokens] : [file.text, file.tokens];
    const cost = tokens + 2; // the blank line between files
    if (cost <= left) {
      parts.push(text);
      left -= cost;
      continue;
    }
    if (left > 50) {
      const cut = decodeTokens(p.model, encodeText(p.model, text).slice(0, left - 10));
      parts.push(cut.slice(0, Math.max(0, cut.lastIndexOf("\n"))) + "\n… (cut: the rest of this file did not fit)");
    }
    break;
  }
  let message = filesMessage(leaf.fileCategory, parts.join("\n\n"), true);
  // Token counts of parts do not add exactly across joins: trim the last lines until it fits.
  while (parts.length > 0 && countTextTokens(p.model, message.content) + 5 > room) {
    const last = parts.pop()!;
    const shorter = last.slice(0, Math.floor(last.length * 0.9));
    if (shorter.length > 100) parts.push(shorter.slice(0, shorter.lastIndexOf("\n")));
    message = filesMessage(leaf.fileCategory, parts.join("\n\n"), true);
  }
  return message;
}
