/**
 * The judge's prompts, in the project's own words. A grading prompt is built in two parts: what
 * leaves of a submission share (instructions, paper, addenda, reproduce.sh, then reproduce.log for
 * the categories that read it, then the category's files when they all fit) first, and what
 * belongs to one leaf (its files when they had to be chosen, the criteria before it, the
 * criterion, its category's question, the answer's form) last, so that a provider's prompt cache
 * serves the shared part to every leaf after the first.
 */
import type { ChatMessage } from "../engine-contract";
import type { FileCategory } from "./file-selection";

export function systemPrompt(codeDev: boolean): string {
  const material = codeDev
    ? "the paper, clarifications about it, the submission's files, and one criterion of a grading rubric. " +
      "Only the code is judged here: the submission was not run, so judge whether the code would do what the criterion asks."
    : "the paper, clarifications about it, the submission's files, its reproduce.sh script, the log of running " +
      "that script in a fresh environment (reproduce.log; shown for criteria about execution and results), and one criterion of a grading rubric.";
  return [
    "You grade one criterion of an attempt to reproduce a research paper. The attempt is a repository written " +
      "from the paper alone, without the authors' code. You are given " +
      material,
    "Judge that one criterion and nothing else, strictly from what the material shows. A README that claims " +
      "something is not evidence that it was done; code that was never run produced no results; results that " +
      "are not in the log or in files written by the run do not exist. When in doubt, the criterion is not met.",
    "Files are shown with their path and numbered lines (when only some files are shown, unnumbered); cite them by that path and line numbers.",
  ].join("\n\n");
}

export function paperMessage(paper: string): ChatMessage {
  return { role: "user", content: `The paper:\n<paper>\n${paper}\n</paper>` };
}

export function addendumMessage(addendum: string, judgeAddendum: string): ChatMessage {
  const joined = [addendum.trim(), judgeAddendum.trim()].filter(Boolean).join("\n\n") || "(none)";
  return {
    role: "user",
    content: `Clarifications of the paper and of how to grade its reproduction, from the rubric's authors:\n<addendum>\n${joined}\n</addendum>`,
  };
}

export function reproduceShMessage(script: string | null): ChatMessage {
  return {
    role: "user",
    content: `The submission's reproduce.sh:\n<reproduce.sh>\n${script ?? "(the submission has no reproduce.sh)"}\n</reproduce.sh>`,
  };
}

export function reproduceLogMessage(log: string | null): ChatMessage {
  return {
    role: "user",
    content: `The output of running reproduce.sh (reproduce.log):\n<reproduce.log>\n${log ?? "(there is no reproduce.log: the script was not run or printed nothing)"}\n</reproduce.log>`,
  };
}

export function fileTreeMessage(tree: string): ChatMessage {
  return {
    role: "user",
    content: `The submission's files that criteria may draw on:\n<file-tree>\n${tree || "(none)"}\n</file-tree>`,
  };
}

/** One file as the judge reads it: path, then numbered lines (what evidence cites). */
export function formatFile(path: string, content: string): string {
  const lines = content.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return `<file path="${path}">\n${lines.map((line, i) => `${i + 1}| ${line}`).join("\n")}\n</file>`;
}

/** One file as chosen files show it: PaperBench's content (its first 200,000 characters), lines unnumbered (as cheap as PaperBench's). */
export function formatPlainFile(path: string, content: string): string {
  return `<file path="${path}">\n${content}\n</file>`;
}

const FILES_INTRO: Record<FileCategory, string> = {
  "Code Development": "The submission's documentation and code",
  "Code Execution": "The submission's documentation and code",
  "Result Analysis": "The submission's documentation and the files reproduce.sh wrote or changed when it ran",
  Subtree: "The submission's documentation, code and the files reproduce.sh wrote or changed when it ran",
};

export function filesMessage(category: FileCategory, formattedFiles: string, chosen: boolean): ChatMessage {
  const which = chosen
    ? " (the most relevant ones, as many as fit; lines unnumbered: count from 1 at the line after a file's tag)"
    : "";
  return {
    role: "user",
    content: `${FILES_INTRO[category]}${which}:\n<files>\n${formattedFiles || "(none)"}\n</files>`,
  };
}

export const CATEGORY_QUESTIONS: Record<string, string> = {
  "Code Development":
    "Does the submission contain code that actually implements this? A description, a plan, a comment or a stub " +
    "is not enough: look for working code that does what the criterion asks.",
  "Code Execution": "Did running reproduce.sh actually carry this out, as its log shows?",
  "Result Analysis":
    "Do the outputs of running reproduce.sh (its log and the files it wrote) show results that agree with this?",
  Subtree: "What weighted share of the criteria of this subtree does the submission meet?",
};
export const DEFAULT_CATEGORY_QUESTION = "Does the submission meet this criterion?";

export interface CriterionPrompt {
  /** The preceding criteria as the plan gives them (`PlannedLeaf.preceding`, PaperBench's prior nodes). */
  preceding: readonly string[];
  requirements: string;
  category: string;
}

export function criterionMessage(c: CriterionPrompt): ChatMessage {
  const preceding = c.preceding.length > 0 ? c.preceding.map((r) => ` -> ${r}`).join("\n") : " (none)";
  return {
    role: "user",
    content:
      `The criteria that come before this one in the rubric (the ones above it and those preceding it), for context:\n${preceding}\n\n` +
      `The criterion to grade (category: ${c.category}):\n<criterion>\n${c.requirements}\n</criterion>\n\n` +
      `The question for this category: ${CATEGORY_QUESTIONS[c.category] ?? DEFAULT_CATEGORY_QUESTION}`,
  };
}

const SCORE_RULE = {
  leaf: "score 1 when the criterion is met and 0 when it is not",
  subtree:
    "score the weighted share of the subtree's criteria that are met, a number from 0 to 1 (each line gives a criterion and its weight among its siblings)",
};

/** Efficient mode: the verdict itself, as the JSON object the response format asks for. */
export function structuredAnswerMessage(continuous: boolean): ChatMessage {
  return {
    role: "user",
    content:
      `Grade the criterion now. Answer with the verdict object only: valid_score (true unless the criterion cannot be judged at all), ` +
      `${continuous ? SCORE_RULE.subtree : SCORE_RULE.leaf}, an explanation of what you found or did not find, and evidence: ` +
      `the files and line ranges (as numbered above) your verdict rests on, empty when nothing in the files bears on it.`,
  };
}

/** PaperBench mode: a free-form assessment, parsed by a second call. */
export function freeFormAnswerMessage(continuous: boolean): ChatMessage {
  return {
    role: "user",
    content:
      `Grade the criterion now. Explain what you found or did not find, citing files and line numbers, then ` +
      `${continuous ? SCORE_RULE.subtree : SCORE_RULE.leaf}. End with a line \`Score: <score>\`.`,
  };
}

/** Marks a ranking request (the test server answers these with a list of paths). */
export const RANKING_REQUEST = "List the files most relevant to grading this criterion";

export function rankingMessage(maxFiles: number | null, treeInline: string | null): ChatMessage {
  const tree = treeInline === null ? "" : `The submission's files:\n<file-tree>\n${treeInline}\n</file-tree>\n\n`;
  const limit = maxFiles === null ? "" : `, at most ${maxFiles}`;
  return {
    role: "user",
    content:
      `${tree}${RANKING_REQUEST}, most relevant first${limit}: one full path per line, exactly as in the file tree, ` +
      `and nothing else. Only some of them can be shown to the grader.`,
  };
}

export function rankingSystemPrompt(): string {
  return (
    "You help grade an attempt to reproduce a research paper. The submission is too large to show whole, so you " +
    "choose which of its files the grader should read to judge one criterion of the rubric."
  );
}

export function parseSystemPrompt(continuous: boolean): string {
  return (
    "The text you are given is a grader's assessment of one criterion of a rubric. Extract its verdict: " +
    "valid_score (false when the text gives no usable score), score " +
    (continuous ? "(a number from 0 to 1)" : "(0 or 1)") +
    ", explanation (a short summary of the grader's reasoning) and evidence (the files and line ranges the text cites; empty when it cites none). " +
    "When the text gives no usable score, set valid_score to false and score to 0."
  );
}
