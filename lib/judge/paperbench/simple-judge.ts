/**
 * Paperbench mode: PaperBench's SimpleJudge (paperbench/judge/simple.py and base.py at the commit
 * the prompts were read from), ported call for call. For every leaf the same ranking, grading and
 * parse calls with the same messages in the same order and the same response formats; the same
 * aggregation, invalid leaves and graded tree (`GradedTaskNode.to_dict`). I/O is injected (the
 * submission, the model, the clock), as in the rest of the engine.
 */
import { AGGREGATED_EXPLANATION, UNGRADED_EXPLANATION } from "@/lib/grading/types";
import pLimit from "p-limit";
import type {
  CallUsage,
  ChatMessage,
  ChatModel,
  JudgeRubricNode,
  JudgeRunHooks,
  JudgeRunInput,
  LeafVerdict,
  SubmissionDirEntry,
} from "../engine-contract";
import { decodeO200k, encodeO200k, pySliceTo } from "./o200k";
import { formatFile } from "./format-file";
import { pythonStrip as pyStrip } from "./python-chars";
import { createTreeStructure, PB_CATEGORIES, toMicros, whitelistedFiles, type PbCategory } from "./file-tree";
import { parsedResponseFormat, parseSystemText, validateParsedResponse } from "./judge-response";
import { renderTemplate, type PaperbenchPrompts, type SimpleJudgeTexts } from "./prompts";
import { formatPython } from "./python-format";
import { bytesNeededFor, readPythonText } from "./python-text";
import { reduceLog } from "./reduce-log";
import { buildRequirementsString, codeOnlyTree, priorNodesFinder } from "./rubric-walk";
import { verdictHandoff } from "../engine/verdict-handoff";

/** SimpleJudge's defaults. */
export const PB_BUFFER_TOKENS = 10_000;
export const PB_MAX_FILE_DEPTH = 4;
export const PB_MAX_FILES = 10;
export const PB_READ_CHARS = 200_000;

/** `GradedTaskNode.to_dict()`. */
export interface PbGradedNode {
  id: string;
  requirements: string;
  weight: number;
  score: number;
  valid_score: boolean;
  task_category: string | null;
  explanation: string;
  judge_metadata: {
    full_judge_response: string | null;
    token_usage: Record<string, { in: number; out: number }> | null;
  } | null;
  sub_tasks: PbGradedNode[];
}

export interface PaperbenchDeps {
  prompts: PaperbenchPrompts;
  /** The clock at the judge's start (ms): the creation time when the submission has no log. */
  now: number;
  /** SimpleJudge's `max_prior_nodes` (null: all). */
  maxPriorNodes?: number | null;
}

/** One thing graded: a leaf, or a node at the max depth graded as a "Subtree" pseudo-leaf. */
export interface PbUnit {
  key: string;
  /** The node in the judged tree (for a pseudo-leaf: the subtree's root). */
  node: JudgeRubricNode;
  /** The task SimpleJudge's grade_leaf sees (the pseudo-leaf's shim: its subtree's requirements). */
  task: { id: string; requirements: string; weight: number; task_category: string | null };
  subtree: boolean;
}

/** The tree SimpleJudge grades: the rubric, or for Code-Dev `code_only()` or the root as one leaf. */
export function paperbenchTree(input: Pick<JudgeRunInput, "rubric" | "codeDev">): JudgeRubricNode {
  return input.codeDev ? codeOnlyTree(input.rubric) : input.rubric;
}

/** `Judge.grade`'s walk (root at depth 1): leaves, and non-leaves at `max_depth` as pseudo-leaves. */
export function planUnits(tree: JudgeRubricNode, maxDepth: number | null): PbUnit[] {
  const out: PbUnit[] = [];
  const walk = (node: JudgeRubricNode, depth: number) => {
    const leaf = node.sub_tasks.length === 0;
    if (maxDepth !== null && depth >= maxDepth && !leaf) {
      out.push({
        key: node.key,
        node,
        task: {
          id: node.id,
          requirements: buildRequirementsString(node),
          weight: node.weight,
          task_category: "Subtree",
        },
        subtree: true,
      });
      return;
    }
    if (leaf) {
      out.push({
        key: node.key,
        node,
        task: { id: node.id, requirements: node.requirements, weight: node.weight, task_category: node.task_category },
        subtree: false,
      });
      return;
    }
    for (const child of node.sub_tasks) walk(child, depth + 1);
  };
  walk(tree, 1);
  return out;
}

/** Python's `int(text)` for a decimal string (whitespace and `_` between digits allowed), else null. */
function pyInt(text: string): number | null {
  const t = pyStrip(text);
  return /^[+-]?\d+(_\d+)*$/.test(t) ? Number(t.replace(/_/g, "")) : null;
}

/** Python's text-mode newline translation (`read_text`): `\r\n` and `\r` read as `\n`. */
function universalNewlines(s: string): string {
  return s.replace(/\r\n?/g, "\n");
}

/** What `before_grading` leaves on the judge: the reproduction's files, budgets, the four trees. */
export interface PbPrepared {
  tree: JudgeRubricNode;
  codeDev: boolean;
  nCtx: number;
  paperMd: string;
  joinedAddendum: string;
  reproduceShContent: string;
  reproduceLogContent: string;
  availContext: Record<PbCategory, number>;
  treeStructures: Record<PbCategory, string>;
  /** The files each category's tree lists (the last attempt's), for the estimate. */
  treeFiles: Record<PbCategory, string[]>;
  reproduceTouchedFiles: boolean;
  prompts: PaperbenchPrompts;
  /** `task.get_prior_nodes(self.rubric, self.max_prior_nodes)`. */
  priorNodes: (nodeId: string) => JudgeRubricNode[];
}

export async function preparePaperbench(input: JudgeRunInput, deps: PaperbenchDeps): Promise<PbPrepared> {
  const { submission } = input;
  const nCtx = input.contextWindow;
  const readLimit = bytesNeededFor(PB_READ_CHARS);
  // Judge.read_repro_files_content: fallbacks first, then what the submission has.
  let reproduceShContent = "(Does not exist)";
  let reproduceLogContent = "(Does not exist)";
  let creationMicros = Math.round(deps.now * 1000);
  const sh = await submission.readHead("reproduce.sh", readLimit);
  if (sh) reproduceShContent = readPythonText(sh.bytes, PB_READ_CHARS);
  const log = await submission.readHead("reproduce.log", readLimit);
  if (log) {
    reproduceLogContent = reduceLog(readPythonText(log.bytes, PB_READ_CHARS));
    creationMicros = toMicros(log.mtime);
  }
  const creation = await submission.readHead("reproduce.log.creation_time", readLimit);
  if (creation) {
    // PaperBench's int() raises on anything else and the whole judge run fails; here a
    // non-integer keeps the fallback (the log's mtime), so submissions written by older
    // studio versions (an ISO date) still grade.
    const seconds = pyInt(readPythonText(creation.bytes, PB_READ_CHARS));
    if (seconds !== null) creationMicros = seconds * 1e6;
  }

  // process_file_content → _truncate_input.
  let logTokens = encodeO200k(reproduceLogContent);
  let paperTokens = encodeO200k(universalNewlines(input.paper.markdown));
  const half = Math.floor(nCtx / 2);
  logTokens = logTokens.slice(0, half);
  let avail = nCtx - (logTokens.length + paperTokens.length);
  if (avail < 0) logTokens = pySliceTo(logTokens, avail - 5000);
  avail = nCtx - (logTokens.length + paperTokens.length);
  if (avail < 0) paperTokens = pySliceTo(paperTokens, avail - 5000);
  reproduceLogContent = decodeO200k(logTokens);
  const paperMd = decodeO200k(paperTokens);

  const reserved = (c: PbCategory) =>
    c === "Code Development" ? paperTokens.length : paperTokens.length + logTokens.length;
  const availContext = Object.fromEntries(
    PB_CATEGORIES.map((c) => [c, nCtx - (reserved(c) + PB_BUFFER_TOKENS)]),
  ) as Record<PbCategory, number>;

  const walk: SubmissionDirEntry[] = await submission.walk();
  let reproduceTouchedFiles = true;
  const attempt = (category: PbCategory, maxFileDepth: number | null) => {
    const listed = whitelistedFiles(walk, category, creationMicros, maxFileDepth);
    if (category === "Result Analysis" && listed.allOlderThanCreation) reproduceTouchedFiles = false;
    const structure = createTreeStructure(listed.files);
    return { structure, files: listed.files, within: encodeO200k(structure).length < availContext[category] };
  };
  const treeStructures = {} as Record<PbCategory, string>;
  const treeFiles = {} as Record<PbCategory, string[]>;
  for (const category of PB_CATEGORIES) {
    let tried = attempt(category, null);
    if (!tried.within) tried = attempt(category, PB_MAX_FILE_DEPTH);
    treeFiles[category] = tried.files;
    treeStructures[category] = tried.within
      ? tried.structure
      : decodeO200k(pySliceTo(encodeO200k(tried.structure), availContext[category]));
  }

  const addendum = input.paper.addendum ? input.paper.addendum : "";
  const judgeAddendum = input.paper.judgeAddendum ? input.paper.judgeAddendum : "";
  const joined = pyStrip(`${addendum}\n${judgeAddendum}`);
  const tree = paperbenchTree(input);
  return {
    tree,
    codeDev: input.codeDev,
    nCtx,
    paperMd,
    joinedAddendum: joined === "" ? deps.prompts.simpleJudge.noAddendum : joined,
    reproduceShContent,
    reproduceLogContent,
    availContext,
    treeStructures,
    treeFiles,
    reproduceTouchedFiles,
    prompts: deps.prompts,
    priorNodes: priorNodesFinder(tree, deps.maxPriorNodes ?? null),
  };
}

/** `submission_dir / rel` as pathlib joins it, relative: `.` and empty parts dropped; null when it leaves the submission. */
function joinInside(rel: string): string | null {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) return null;
  return parts.join("/");
}

type Asker = (
  purpose: CallUsage["purpose"],
  model: string,
  messages: ChatMessage[],
  jsonSchema?: { name: string; schema: Record<string, unknown> },
) => Promise<{ content: string; usage: CallUsage }>;

function categoryKey(category: string | null): string {
  return category || "Subtree";
}

function lookup<T>(table: Record<PbCategory, T>, category: string | null): T {
  const key = categoryKey(category);
  if (!(key in table)) throw new Error(`'${key}'`); // str(KeyError) in Python
  return table[key as PbCategory];
}

/** The ranking call's messages (`_prepare_relevant_files`). */
export function rankMessages(
  p: PbPrepared,
  task: PbUnit["task"],
  maxFiles: number | null = PB_MAX_FILES,
): ChatMessage[] {
  const treeStructure = lookup(p.treeStructures, task.task_category);
  const t = p.prompts.simpleJudge;
  return [
    { role: "system", content: p.prompts.fileRankingPrompt },
    { role: "user", content: renderTemplate(t, "rankPaper", { "self.paper_md": p.paperMd }) },
    { role: "user", content: renderTemplate(t, "rankAddendum", { "self.joined_addendum": p.joinedAddendum }) },
    { role: "user", content: renderTemplate(t, "rankCriterion", { "task.requirements": task.requirements }) },
    {
      role: "user",
      content: renderTemplate(t, "rankFiles", {
        tree_structure: treeStructure,
        "str(max_files) + ' ' if max_files else ''": maxFiles ? `${maxFiles} ` : "",
      }),
    },
  ];
}

/** The files the ranking answer names, read and concatenated up to the budget (`_prepare_relevant_files` after its call). */
export async function relevantFiles(
  p: PbPrepared,
  input: JudgeRunInput,
  task: PbUnit["task"],
  selected: string,
  maxFiles: number | null = PB_MAX_FILES,
): Promise<string> {
  const maxTokens = lookup(p.availContext, task.task_category) - 2000;
  const lines = selected.split("\n");
  const readLimit = bytesNeededFor(PB_READ_CHARS);
  const contents = await Promise.all(
    lines.slice(0, maxFiles || undefined).map(async (rel) => {
      const inside = joinInside(pyStrip(pyStrip(rel), "/"));
      if (inside === null || inside === "") return null; // outside the submission, or the submission itself (a folder)
      const head = await input.submission.readHead(inside, readLimit);
      return head ? readPythonText(head.bytes, PB_READ_CHARS) : null;
    }),
  );
  const tokens: number[] = [];
  let numFiles = 0;
  let total = 0;
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i];
    if (content === null) continue; // not found, a folder, unreadable: skipped as SimpleJudge logs and skips
    const stripped = pyStrip(lines[i]);
    if (stripped.startsWith("/")) continue; // `relative_to` raises for an absolute path: skipped
    const shown = joinInside(stripped);
    if (shown === null) continue;
    let contentTokens = encodeO200k(formatFile(shown, content) + "\n\n");
    if (total + contentTokens.length > maxTokens) {
      contentTokens = pySliceTo(contentTokens, maxTokens - total);
      tokens.push(...contentTokens);
      numFiles++;
      break;
    }
    tokens.push(...contentTokens);
    numFiles++;
    total += contentTokens.length;
    if (maxFiles && numFiles >= maxFiles) break;
  }
  const text = decodeO200k(tokens);
  const cut = text.lastIndexOf("\n");
  return cut === -1 ? text : text.slice(0, cut);
}

/** `_construct_grade_leaf_messages`, given the relevant files' text. */
export function gradeMessages(p: PbPrepared, task: PbUnit["task"], files: string): ChatMessage[] {
  const t = p.prompts.simpleJudge;
  const filesPrompt = renderTemplate(t, task.task_category !== "Result Analysis" ? "files" : "filesResultAnalysis", {
    relevant_files: files,
  });
  let preceding = "";
  for (const node of p.priorNodes(task.id)) preceding += ` -> ${node.requirements}\n`;
  const shMessage: ChatMessage = {
    role: "user",
    content: renderTemplate(t, "reproduceSh", { "self.reproduce_sh_content": p.reproduceShContent }),
  };
  const logMessage: ChatMessage = {
    role: "user",
    content: renderTemplate(t, "reproduceLog", { "self.reproduce_log_content": p.reproduceLogContent }),
  };
  const reproduction = p.codeDev
    ? []
    : task.task_category === "Code Development"
      ? [shMessage]
      : [shMessage, logMessage];
  const questions = p.prompts.taskCategoryQuestions;
  const question =
    task.task_category !== null && Object.hasOwn(questions, task.task_category)
      ? questions[task.task_category]
      : p.prompts.simpleJudge.categoryQuestionFallback;
  return [
    { role: "system", content: p.codeDev ? p.prompts.judgeTaskPrompt.codeOnly : p.prompts.judgeTaskPrompt.full },
    { role: "user", content: renderTemplate(t, "gradePaper", { "self.paper_md": p.paperMd }) },
    { role: "user", content: renderTemplate(t, "gradeAddendum", { "self.joined_addendum": p.joinedAddendum }) },
    { role: "user", content: filesPrompt },
    ...reproduction,
    {
      role: "user",
      content: formatPython(p.prompts.criterionPrompt, {
        preceding_criteria: preceding,
        criterion: task.requirements,
        task_category: task.task_category ?? "None",
        task_category_question: question,
      }),
    },
    {
      role: "user",
      content: task.task_category === "Subtree" ? p.prompts.gradingPrompt.continuous : p.prompts.gradingPrompt.binary,
    },
  ];
}

export function parseMessages(texts: SimpleJudgeTexts, response: string, continuous: boolean): ChatMessage[] {
  return [
    { role: "system", content: parseSystemText(texts, continuous) },
    { role: "user", content: response },
  ];
}

/** One unit's outcome: graded (with its free-form answer), the Result Analysis shortcut, or failed (`str(e)`). */
export type PbOutcome =
  | {
      kind: "graded";
      score: number;
      valid: boolean;
      explanation: string;
      fullJudgeResponse: string;
      tokenUsage: Record<string, { in: number; out: number }>;
    }
  | { kind: "shortcut"; explanation: string }
  | { kind: "failed"; message: string };

/** SimpleJudge.grade_leaf for one unit: rank, grade, parse (the Result Analysis shortcut makes none). */
export async function gradeUnit(p: PbPrepared, input: JudgeRunInput, unit: PbUnit, ask: Asker): Promise<PbOutcome> {
  const { task } = unit;
  try {
    if (task.task_category === "Result Analysis" && !p.reproduceTouchedFiles)
      return { kind: "shortcut", explanation: p.prompts.simpleJudge.noTouchExplanation };
    const ranking = await ask("rank", input.model, rankMessages(p, task));
    const files = await relevantFiles(p, input, task, ranking.content);
    const grading = await ask("grade", input.model, gradeMessages(p, task, files));
    const tokenUsage: Record<string, { in: number; out: number }> = {};
    const add = (u: CallUsage) => {
      const t = (tokenUsage[u.model] ??= { in: 0, out: 0 });
      t.in += u.inputTokens;
      t.out += u.outputTokens;
    };
    add(grading.usage);
    const response = grading.content;
    const continuous = task.task_category === "Subtree";
    const parse = await ask(
      "parse",
      input.parseModel ?? input.model,
      parseMessages(p.prompts.simpleJudge, response, continuous),
      parsedResponseFormat(continuous),
    );
    add(parse.usage);
    const parsed = validateParsedResponse(parse.content, continuous);
    return {
      kind: "graded",
      score: parsed.score,
      valid: parsed.valid_score,
      explanation: parsed.explanation,
      fullJudgeResponse: response,
      tokenUsage,
    };
  } catch (err) {
    if (err instanceof PbAborted) throw err;
    return { kind: "failed", message: err instanceof Error ? err.message : String(err) };
  }
}

export class PbAborted extends Error {
  constructor() {
    super("The judge run was cancelled");
    this.name = "RunAborted";
  }
}

export function verdictOf(unit: PbUnit, outcome: PbOutcome, calls: CallUsage[]): LeafVerdict {
  const base = { key: unit.key, evidence: [], calls, subtree: unit.subtree };
  if (outcome.kind === "shortcut")
    return { ...base, score: 0, valid: true, explanation: outcome.explanation, fullJudgeResponse: null };
  if (outcome.kind === "failed")
    return { ...base, score: 0, valid: false, explanation: outcome.message, fullJudgeResponse: null };
  return {
    ...base,
    score: outcome.score,
    valid: outcome.valid,
    explanation: outcome.explanation,
    fullJudgeResponse: outcome.fullJudgeResponse,
  };
}

/** A node with `to_dict()`'s keys in its order. */
function pbNode(
  task: { id: string; requirements: string; weight: number; task_category: string | null },
  score: number,
  valid: boolean,
  explanation: string,
  judgeMetadata: PbGradedNode["judge_metadata"],
  subTasks: PbGradedNode[],
): PbGradedNode {
  return {
    id: task.id,
    requirements: task.requirements,
    weight: task.weight,
    score,
    valid_score: valid,
    task_category: task.task_category,
    explanation,
    judge_metadata: judgeMetadata,
    sub_tasks: subTasks,
  };
}

/** `GradedTaskNode.from_task`: the node and every node below it with the same grade. */
function fromTask(node: JudgeRubricNode, score: number, valid: boolean, explanation: string): PbGradedNode {
  return pbNode(
    node,
    score,
    valid,
    explanation,
    null,
    node.sub_tasks.map((c) => fromTask(c, score, valid, explanation)),
  );
}

/** `score_from_children`. */
export function scoreFromChildren(children: readonly { score: number; weight: number }[]): number {
  const total = children.reduce((n, c) => n + c.weight, 0);
  if (total === 0) return 0;
  return children.reduce((n, c) => n + c.score * c.weight, 0) / total;
}

/** The graded tree as `Judge.grade` returns it (`to_dict`), from each unit's outcome (absent: "not yet graded"). */
export function pbGradedTree(
  tree: JudgeRubricNode,
  units: readonly PbUnit[],
  outcomes: ReadonlyMap<string, PbOutcome>,
): PbGradedNode {
  const unitOf = new Map(units.map((u) => [u.node, u]));
  const build = (node: JudgeRubricNode): PbGradedNode => {
    const unit = unitOf.get(node);
    if (unit) {
      const outcome = outcomes.get(unit.key);
      if (!outcome) return pbNode(unit.task, 0, false, UNGRADED_EXPLANATION, null, []);
      if (outcome.kind === "failed") return fromTask(node, 0, false, outcome.message);
      if (outcome.kind === "shortcut") return pbNode(unit.task, 0, true, outcome.explanation, null, []);
      return pbNode(
        unit.task,
        outcome.score,
        outcome.valid,
        outcome.explanation,
        { full_judge_response: outcome.fullJudgeResponse, token_usage: outcome.tokenUsage },
        [],
      );
    }
    const subTasks = node.sub_tasks.map(build);
    return pbNode(
      { ...node, task_category: null },
      scoreFromChildren(subTasks),
      true,
      AGGREGATED_EXPLANATION,
      null,
      subTasks,
    );
  };
  return build(tree);
}

export interface PaperbenchRunResult {
  verdicts: LeafVerdict[];
  units: PbUnit[];
  outcomes: Map<string, PbOutcome>;
  tree: PbGradedNode;
}

/**
 * A paperbench-mode run: before_grading once, then every unit not in `hooks.done`, at most
 * `maxConcurrency` at once (SimpleJudge: a semaphore of 100), each verdict handed to `onVerdict`.
 */
export async function runPaperbenchJudge(
  input: JudgeRunInput,
  model: ChatModel,
  hooks: JudgeRunHooks,
  deps: PaperbenchDeps,
): Promise<PaperbenchRunResult> {
  const p = await preparePaperbench(input, deps);
  const units = planUnits(p.tree, input.maxDepth);
  await hooks.ready?.();
  const limit = pLimit(Math.max(1, input.maxConcurrency));
  const outcomes = new Map<string, PbOutcome>();
  const verdicts = new Map<string, LeafVerdict>();
  const handoff = verdictHandoff(hooks);
  await Promise.all(
    units
      .filter((u) => !hooks.done?.has(u.key))
      .map((unit) =>
        limit(async () => {
          if (hooks.signal?.aborted || handoff.failed) return;
          const calls: CallUsage[] = [];
          const ask: Asker = async (purpose, name, messages, jsonSchema) => {
            if (hooks.signal?.aborted) throw new PbAborted();
            const answer = await model.complete({
              model: name,
              messages,
              jsonSchema,
              reasoningEffort: purpose === "parse" ? undefined : (input.reasoningEffort ?? undefined),
              signal: hooks.signal,
            });
            const usage = { ...answer.usage, purpose };
            calls.push(usage);
            return { content: answer.content, usage };
          };
          let outcome: PbOutcome;
          try {
            outcome = await gradeUnit(p, input, unit, ask);
          } catch (err) {
            if (err instanceof PbAborted) return;
            throw err;
          }
          if (outcome.kind === "failed" && hooks.signal?.aborted) return;
          outcomes.set(unit.key, outcome);
          const verdict = verdictOf(unit, outcome, calls);
          verdicts.set(unit.key, verdict);
          handoff.hand(verdict);
        }),
      ),
  );
  await handoff.settle();
  return {
    verdicts: units.map((u) => verdicts.get(u.key)).filter((v): v is LeafVerdict => !!v),
    units,
    outcomes,
    tree: pbGradedTree(p.tree, units, outcomes),
  };
}
