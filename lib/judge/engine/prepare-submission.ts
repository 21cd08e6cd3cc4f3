/**
 * Everything a run reads from the submission once, before its first call: the paper and the
 * reproduction's script and log cut to the budget (the log keeping head and tail), the candidate
 * files of each category read and formatted with their token counts, and the shared prefix of
 * every efficient-mode prompt.
 */
import type { ChatMessage, JudgeRunInput, SubmissionFileInfo, SubmissionFiles } from "../engine-contract";
import { countChatTokens, countMessageTokens, countTextTokens, promptBudget, truncateToTokens } from "./budget";
import {
  candidateFiles,
  CREATION_TIME_FILE,
  drawFileTree,
  isSkippedPath,
  REPRODUCE_LOG,
  REPRODUCE_SH,
  reproductionTouchedFiles,
  type FileCategory,
  type SelectionContext,
} from "./file-selection";
import {
  addendumMessage,
  fileTreeMessage,
  filesMessage,
  formatFile,
  paperMessage,
  reproduceLogMessage,
  reproduceShMessage,
  systemPrompt,
} from "./prompts";
import { fitLog } from "./reproduce-log";
import type { PlannedLeaf } from "./rubric-plan";

export interface FormattedFile {
  path: string;
  text: string;
  tokens: number;
}

export interface CategoryFiles {
  files: FormattedFile[];
  /** All of them in one message (shown whole when it fits). */
  message: ChatMessage;
  messageTokens: number;
  tree: string;
}

export interface PreparedSubmission {
  model: string;
  codeDev: boolean;
  contextWindow: number;
  system: ChatMessage;
  paper: ChatMessage;
  addendum: ChatMessage;
  /** Null in Code-Dev (neither is shown). */
  reproduceSh: ChatMessage | null;
  reproduceLog: ChatMessage | null;
  /** Efficient mode: system, paper, addenda, reproduce.sh and .log, the file tree. */
  sharedPrefix: ChatMessage[];
  sharedPrefixTokens: number;
  categories: Map<FileCategory, CategoryFiles>;
  /** Reproduction wrote some file a Result Analysis criterion could read. */
  reproductionTouched: boolean;
  creationMs: number | null;
}

/** Room the prompt keeps besides the paper and the log (PaperBench: 5k tokens), at most a fifth of the window. */
function minimumRoom(contextWindow: number): number {
  return Math.min(5_000, Math.floor(contextWindow / 5));
}

function parseCreationTime(text: string | null): number | null {
  if (text === null) return null;
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : ms;
}

/** The files a run may read (skipped folders left out) and how it tells candidates apart. */
export async function listForSelection(submission: SubmissionFiles, codeDev: boolean): Promise<{ listed: SubmissionFileInfo[]; ctx: SelectionContext }> {
  const listed = (await submission.list()).filter((f) => !isSkippedPath(f.path));
  const creationMs = listed.some((f) => f.path === CREATION_TIME_FILE) ? parseCreationTime(await submission.read(CREATION_TIME_FILE)) : null;
  return { listed, ctx: { creationMs, shownApart: new Set(codeDev ? [REPRODUCE_LOG] : [REPRODUCE_SH, REPRODUCE_LOG]) } };
}

export async function prepareSubmission(input: JudgeRunInput, leaves: readonly PlannedLeaf[]): Promise<PreparedSubmission> {
  const { model, codeDev, contextWindow, submission } = input;
  const budget = promptBudget(contextWindow);
  const { listed, ctx } = await listForSelection(submission, codeDev);
  const { creationMs } = ctx;
  const paths = new Set(listed.map((f) => f.path));

  const script = !codeDev && paths.has(REPRODUCE_SH) ? await submission.read(REPRODUCE_SH) : null;
  const rawLog = !codeDev && paths.has(REPRODUCE_LOG) ? await submission.read(REPRODUCE_LOG) : null;

  const system: ChatMessage = { role: "system", content: systemPrompt(codeDev) };
  const addendum = addendumMessage(input.paper.addendum, input.paper.judgeAddendum);
  const reproduceSh = codeDev ? null : reproduceShMessage(script);
  const fixedTokens = countChatTokens(model, [system, addendum, ...(reproduceSh ? [reproduceSh] : [])]);

  // The log gets at most half the window, then less while paper and log leave too little room
  // (PaperBench's order: the log is cut before the paper).
  let paperText = input.paper.markdown;
  let paperTokens = countTextTokens(model, paperText);
  let reproduceLog: ChatMessage | null = null;
  if (!codeDev) {
    const room = budget - minimumRoom(contextWindow) - fixedTokens - paperTokens;
    const logMax = Math.max(0, Math.min(Math.floor(contextWindow / 2), room));
    reproduceLog = reproduceLogMessage(rawLog === null ? null : fitLog(model, rawLog, logMax).text);
  }
  const logTokens = reproduceLog ? countMessageTokens(model, reproduceLog) : 0;
  const paperRoom = budget - minimumRoom(contextWindow) - fixedTokens - logTokens;
  if (paperTokens > paperRoom) {
    paperText = truncateToTokens(model, paperText, Math.max(0, paperRoom));
    paperTokens = countTextTokens(model, paperText);
  }
  const paper = paperMessage(paperText);

  const needed = new Set(leaves.map((l) => l.fileCategory));
  const byCategory = new Map<FileCategory, SubmissionFileInfo[]>();
  for (const category of needed) byCategory.set(category, candidateFiles(listed, category, ctx));
  const texts = new Map<string, FormattedFile | null>();
  for (const files of byCategory.values()) {
    for (const f of files) {
      if (texts.has(f.path)) continue;
      const content = await submission.read(f.path);
      if (content === null) texts.set(f.path, null);
      else {
        const text = formatFile(f.path, content);
        texts.set(f.path, { path: f.path, text, tokens: countTextTokens(model, text) });
      }
    }
  }
  const categories = new Map<FileCategory, CategoryFiles>();
  const allPaths = new Set<string>();
  for (const [category, infos] of byCategory) {
    const files = infos.map((f) => texts.get(f.path)).filter((f): f is FormattedFile => !!f);
    for (const f of files) allPaths.add(f.path);
    const message = filesMessage(category, files.map((f) => f.text).join("\n\n"), false);
    categories.set(category, {
      files,
      message,
      messageTokens: countMessageTokens(model, message),
      tree: drawFileTree(files.map((f) => f.path)),
    });
  }

  // The tree of every file some criterion may read, cut to an eighth of the budget at a line.
  let tree = drawFileTree([...allPaths].sort());
  const treeMax = Math.floor(budget / 8);
  if (countTextTokens(model, tree) > treeMax) tree = truncateToTokens(model, tree, treeMax).replace(/\n[^\n]*$/, "\n…");
  const sharedPrefix = [system, paper, addendum, ...(reproduceSh ? [reproduceSh] : []), ...(reproduceLog ? [reproduceLog] : []), fileTreeMessage(tree)];

  return {
    model,
    codeDev,
    contextWindow,
    system,
    paper,
    addendum,
    reproduceSh,
    reproduceLog,
    sharedPrefix,
    sharedPrefixTokens: countChatTokens(model, sharedPrefix),
    categories,
    reproductionTouched: reproductionTouchedFiles(listed, ctx),
    creationMs,
  };
}
