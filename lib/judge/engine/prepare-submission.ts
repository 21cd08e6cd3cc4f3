/**
 * Everything a run reads from the submission once, before its first call: the paper and the
 * reproduction's script and log cut as PaperBench cuts them (efficient mode adds the log's end),
 * the candidate files of each category read and formatted with their token counts, and the
 * prefixes efficient-mode prompts share: system, paper, addenda and reproduce.sh for every leaf,
 * then reproduce.log for the categories that read it (not Code Development, as in PaperBench), so
 * a large log never takes a Code Development leaf's room for files.
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
import { firstCodePoints, PAPERBENCH_MAX_CHARS, pythonNewlines } from "./judge-file-text";
import {
  addendumMessage,
  fileTreeMessage,
  filesMessage,
  formatFile,
  formatPlainFile,
  paperMessage,
  reproduceLogMessage,
  reproduceShMessage,
  systemPrompt,
} from "./prompts";
import { efficientLog, logTailTokens, paperbenchContext } from "./reproduce-log";
import type { PlannedLeaf } from "./rubric-plan";

export interface FormattedFile {
  path: string;
  /** Whole, with numbered lines (shown when the category's files fit). */
  text: string;
  tokens: number;
  /** PaperBench's content (its first 200,000 characters), unnumbered: shown when files are chosen. */
  plain: string;
  plainTokens: number;
}

export interface CategoryFiles {
  files: FormattedFile[];
  /** All of them in one message (shown whole when it fits). */
  message: ChatMessage;
  messageTokens: number;
  tree: string;
  /** Efficient mode's ranking call: the tree after the category's prefix, cut to fit. */
  treeMessage: ChatMessage;
}

export interface PromptPrefix {
  messages: ChatMessage[];
  tokens: number;
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
  /** Efficient mode, every leaf: system, paper, addenda, reproduce.sh. */
  basePrefix: PromptPrefix;
  /** Efficient mode, leaves that read the log: the base, then reproduce.log. */
  logPrefix: PromptPrefix;
  /** Tokens of the paper and of the log as PaperBench shows them (what its room for files leaves out). */
  paperbenchPaperTokens: number;
  paperbenchLogTokens: number;
  categories: Map<FileCategory, CategoryFiles>;
  /** Reproduction wrote some file a Result Analysis criterion could read. */
  reproductionTouched: boolean;
  creationMs: number | null;
  /** Files a ranking named outside its category's candidates, as PaperBench would read them (absent ones left out). */
  readOthers(paths: readonly string[]): Promise<Map<string, FormattedFile>>;
}

/** Names a ranking answer may give that are read (efficient mode shows at most 50 files). */
const EFFICIENT_MAX_RANKED = 50;

function parseCreationTime(text: string | null): number | null {
  if (text === null) return null;
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : ms;
}

/** The files a run may read (skipped folders left out) and how it tells candidates apart. */
export async function listForSelection(
  submission: SubmissionFiles,
  codeDev: boolean,
): Promise<{ listed: SubmissionFileInfo[]; ctx: SelectionContext }> {
  const listed = (await submission.list()).filter((f) => !isSkippedPath(f.path));
  // No creation time: PaperBench falls back to reproduce.log's mtime.
  const written = listed.some((f) => f.path === CREATION_TIME_FILE)
    ? parseCreationTime(await submission.read(CREATION_TIME_FILE))
    : null;
  const creationMs = written ?? listed.find((f) => f.path === REPRODUCE_LOG)?.mtimeMs ?? null;
  return {
    listed,
    ctx: { creationMs, shownApart: new Set(codeDev ? [REPRODUCE_LOG] : [REPRODUCE_SH, REPRODUCE_LOG]) },
  };
}

/** Which prefix an efficient-mode leaf's prompt starts with. */
export function prefixFor(p: PreparedSubmission, category: FileCategory): PromptPrefix {
  return category === "Code Development" ? p.basePrefix : p.logPrefix;
}

function prefix(model: string, messages: ChatMessage[]): PromptPrefix {
  return { messages, tokens: countChatTokens(model, messages) };
}

export async function prepareSubmission(
  input: JudgeRunInput,
  leaves: readonly PlannedLeaf[],
): Promise<PreparedSubmission> {
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
  const pb = paperbenchContext(model, contextWindow, rawLog, input.paper.markdown);
  const paper = paperMessage(pb.paper);
  const reproduceLog = codeDev ? null : reproduceLogMessage(efficientLog(model, pb, logTailTokens(contextWindow)));
  const basePrefix = prefix(model, [system, paper, addendum, ...(reproduceSh ? [reproduceSh] : [])]);
  const logPrefix = reproduceLog ? prefix(model, [...basePrefix.messages, reproduceLog]) : basePrefix;

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
        const plain = formatPlainFile(f.path, firstCodePoints(pythonNewlines(content), PAPERBENCH_MAX_CHARS));
        texts.set(f.path, {
          path: f.path,
          text,
          tokens: countTextTokens(model, text),
          plain,
          plainTokens: countTextTokens(model, plain),
        });
      }
    }
  }
  // Read once per run, PaperBench's content only (the files are shown chosen, so unnumbered).
  const others = new Map<string, Promise<FormattedFile | null>>();
  // Any path inside the submission, listed or not (PaperBench reads `venv/…` too when named).
  const readOther = async (path: string): Promise<FormattedFile | null> => {
    const content = await submission.read(path);
    if (content === null) return null;
    const plain = formatPlainFile(path, firstCodePoints(pythonNewlines(content), PAPERBENCH_MAX_CHARS));
    const plainTokens = countTextTokens(model, plain);
    return { path, text: plain, tokens: plainTokens, plain, plainTokens };
  };
  const categories = new Map<FileCategory, CategoryFiles>();
  for (const [category, infos] of byCategory) {
    const files = infos.map((f) => texts.get(f.path)).filter((f): f is FormattedFile => !!f);
    const message = filesMessage(category, files.map((f) => f.text).join("\n\n"), false);
    const tree = drawFileTree(files.map((f) => f.path));
    // The ranking call's tree: what the category's prefix leaves, less room for the criterion and the request.
    const treeMax = Math.max(0, budget - (category === "Code Development" ? basePrefix : logPrefix).tokens - 2_000);
    const rankTree =
      countTextTokens(model, tree) > treeMax
        ? truncateToTokens(model, tree, treeMax).replace(/\n[^\n]*$/, "\n…")
        : tree;
    categories.set(category, {
      files,
      message,
      messageTokens: countMessageTokens(model, message),
      tree,
      treeMessage: fileTreeMessage(rankTree),
    });
  }

  return {
    model,
    codeDev,
    contextWindow,
    system,
    paper,
    addendum,
    reproduceSh,
    reproduceLog,
    basePrefix,
    logPrefix,
    paperbenchPaperTokens: pb.paperTokens,
    paperbenchLogTokens: codeDev ? 0 : pb.logTokens,
    categories,
    reproductionTouched: reproductionTouchedFiles(listed, ctx),
    creationMs,
    readOthers: async (wanted) => {
      const out = new Map<string, FormattedFile>();
      for (const path of wanted.slice(0, EFFICIENT_MAX_RANKED)) {
        if (!others.has(path)) others.set(path, readOther(path));
        const file = await others.get(path)!;
        if (file) out.set(path, file);
      }
      return out;
    },
  };
}
