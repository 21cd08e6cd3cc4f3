/**
 * The messages of each call a leaf may need, in both modes, shared by the grader and the
 * estimate (so an estimate counts the prompts that will be sent).
 *
 * Efficient: `[shared prefix] [category files, or the ranked files] [criterion] [answer form]`.
 * (Paperbench mode's messages are SimpleJudge's, built in lib/judge/paperbench/simple-judge.ts.)
 */
import type { ChatMessage } from "../engine-contract";
import { countChatTokens, countMessageTokens, countTextTokens, decodeTokens, encodeText, promptBudget } from "./budget";
import { filesMessage, criterionMessage, freeFormAnswerMessage, parseSystemPrompt, rankingMessage, structuredAnswerMessage } from "./prompts";
import type { PreparedSubmission } from "./prepare-submission";
import type { PlannedLeaf } from "./rubric-plan";

/** Efficient mode fills the budget with as many ranked files as fit, up to this many. */
export const EFFICIENT_MAX_FILES = 50;

function criterion(leaf: PlannedLeaf): ChatMessage {
  return criterionMessage({ preceding: leaf.preceding, requirements: leaf.requirements, category: leaf.category });
}

function answerForm(leaf: PlannedLeaf, structured: boolean): ChatMessage {
  return structured ? structuredAnswerMessage(leaf.subtree) : freeFormAnswerMessage(leaf.subtree);
}

/** Efficient grading: the files message goes between the shared prefix and the leaf's own part. */
export function efficientGradeMessages(p: PreparedSubmission, leaf: PlannedLeaf, files: ChatMessage, structured: boolean): ChatMessage[] {
  return [...p.sharedPrefix, files, criterion(leaf), answerForm(leaf, structured)];
}

export function efficientRankMessages(p: PreparedSubmission, leaf: PlannedLeaf): ChatMessage[] {
  return [...p.sharedPrefix, criterion(leaf), rankingMessage(EFFICIENT_MAX_FILES, null)];
}

export function parseMessages(answer: string, continuous: boolean): ChatMessage[] {
  return [
    { role: "system", content: parseSystemPrompt(continuous) },
    { role: "user", content: answer },
  ];
}

/**
 * Tokens left for the files message in a prompt made of `messagesWithoutFiles` plus it. The
 * shared prefix's count is known (prepared once), so only the leaf's own messages are counted.
 */
export function roomForFiles(p: PreparedSubmission, messagesWithoutFiles: readonly ChatMessage[]): number {
  const prefix = p.sharedPrefix.length;
  const startsWithPrefix = messagesWithoutFiles.length >= prefix && p.sharedPrefix.every((m, i) => messagesWithoutFiles[i] === m);
  const used = startsWithPrefix
    ? p.sharedPrefixTokens + messagesWithoutFiles.slice(prefix).reduce((n, m) => n + countMessageTokens(p.model, m), 0)
    : countChatTokens(p.model, messagesWithoutFiles);
  return promptBudget(p.contextWindow) - used;
}

/** The paths a ranking answer names, in its order, that are candidates (bullets, quotes and `./` ignored). */
export function rankedPaths(answer: string, candidates: readonly string[]): string[] {
  const known = new Set(candidates);
  const out: string[] = [];
  for (const raw of answer.split("\n")) {
    const path = raw
      .trim()
      .replace(/^(\d+[.)]|[-*•])\s+/, "")
      .replace(/^[`'"]+|[`'"]+$/g, "")
      .replace(/^\.?\//, "");
    if (known.has(path) && !out.includes(path)) out.push(path);
  }
  return out;
}

/**
 * The files message for chosen files: in the given order, whole while they fit in `room` tokens,
 * the first that does not fit cut at a line to fill the rest (SimpleJudge's fill), then no more.
 */
export function fillFiles(p: PreparedSubmission, leaf: PlannedLeaf, order: readonly string[], room: number, maxFiles: number | null): ChatMessage {
  const category = p.categories.get(leaf.fileCategory)!;
  const byPath = new Map(category.files.map((f) => [f.path, f]));
  const envelope = countChatTokens(p.model, [filesMessage(leaf.fileCategory, "", true)]) - countChatTokens(p.model, []);
  let left = room - envelope;
  const parts: string[] = [];
  for (const path of order.slice(0, maxFiles ?? undefined)) {
    const file = byPath.get(path);
    if (!file) continue;
    const cost = file.tokens + 2; // the blank line between files
    if (cost <= left) {
      parts.push(file.text);
      left -= cost;
      continue;
    }
    if (left > 50) {
      const cut = decodeTokens(p.model, encodeText(p.model, file.text).slice(0, left - 10));
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
