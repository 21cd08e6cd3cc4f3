/**
 * A run's cost before it starts, from the real prompts counted with the real tokenizer (no call
 * is made): calls, input tokens (exact for prompts known in advance; a chosen-files prompt counts
 * its files up to the budget), cached input (a provider's prefix cache: a prefix of at least 1,024
 * tokens, in steps of 128, already sent in this run), output at an assumed length per call, and
 * the duration at the configured concurrency.
 */
import type { ChatMessage, JudgeEstimate, JudgeRunInput } from "../engine-contract";
import { countChatTokens, countMessageTokens } from "./budget";
import { efficientGradeMessages, efficientRankMessages, filesRoom, parseMessages } from "./call-messages";
import {
  gradeMessages as pbGradeMessages,
  parseMessages as pbParseMessages,
  planUnits,
  preparePaperbench,
  rankMessages as pbRankMessages,
} from "../paperbench/simple-judge";
import { shortcutVerdict } from "./leaf-grader";
import { encodeO200k } from "../paperbench/o200k";
import { formatFile } from "../paperbench/format-file";
import { bytesNeededFor, readPythonText } from "../paperbench/python-text";
import { PB_READ_CHARS } from "../paperbench/simple-judge";
import { prepareSubmission } from "./prepare-submission";
import { judgedTree, planLeaves } from "./rubric-plan";

/** Assumed answer lengths (tokens) of each kind of call; a reasoning model's thinking comes on top. */
export const ASSUMED_OUTPUT_TOKENS = { rank: 120, grade: 450, parse: 150 } as const;
/** Assumed seconds per call when the caller has no measured latency. */
export const DEFAULT_CALL_LATENCY_S = 15;

/** OpenAI's prompt caching: prefixes of 1,024 tokens and more, in 128-token steps. */
export function cacheableTokens(commonPrefixTokens: number): number {
  return commonPrefixTokens < 1024 ? 0 : Math.floor(commonPrefixTokens / 128) * 128;
}

/** Follows the calls in order and says how much of each prompt a prefix cache would already hold. */
class PrefixCache {
  private readonly ids = new Map<string, number>();
  private readonly seen = new Set<string>();
  constructor(private readonly model: string) {}

  cached(messages: readonly ChatMessage[]): number {
    let key = "";
    let tokens = 0;
    let common = 0;
    const keys: string[] = [];
    for (const m of messages) {
      const text = `${m.role}\u0000${m.content}`;
      let id = this.ids.get(text);
      if (id === undefined) this.ids.set(text, (id = this.ids.size));
      key += `${id},`;
      tokens += countMessageTokens(this.model, m);
      keys.push(key);
      if (this.seen.has(key)) common = tokens;
    }
    for (const k of keys) this.seen.add(k);
    return cacheableTokens(common);
  }
}

/**
 * Paperbench mode: SimpleJudge's calls exactly (ranking, grading and parse per unit; none for a
 * Result Analysis leaf when reproduction touched nothing), the ranking and the grading prompt
 * without files counted exactly, the files at the budget SimpleJudge fills (its ranked files are
 * not known before the call: the ten largest files its tree lists, read as it reads them, at most
 * the budget).
 */
async function estimatePaperbench(input: JudgeRunInput, latencyS: number): Promise<JudgeEstimate> {
  if (!input.paperbench)
    throw new Error(
      "Paperbench mode needs PaperBench's prompts (read from its constants.py at run start); none were given",
    );
  const p = await preparePaperbench(input, {
    prompts: input.paperbench.prompts,
    now: input.paperbench.now ?? Date.now(),
  });
  const units = planUnits(p.tree, input.maxDepth);
  const cache = new PrefixCache(input.model);
  const est = { leaves: units.length, calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  let graded = 0;
  const fileTokens = new Map<string, number>();
  const tenLargest = new Map<string, number>();
  const largestOf = async (category: keyof typeof p.treeFiles): Promise<number> => {
    const known = tenLargest.get(category);
    if (known !== undefined) return known;
    const sizes: number[] = [];
    for (const f of p.treeFiles[category] ?? []) {
      let n = fileTokens.get(f);
      if (n === undefined) {
        const head = await input.submission.readHead(f, bytesNeededFor(PB_READ_CHARS));
        n = head ? encodeO200k(formatFile(f, readPythonText(head.bytes, PB_READ_CHARS)) + "\n\n").length : 0;
        fileTokens.set(f, n);
      }
      sizes.push(n);
    }
    const total = sizes
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((a, b) => a + b, 0);
    tenLargest.set(category, total);
    return total;
  };
  for (const unit of units) {
    if (unit.task.task_category === "Result Analysis" && !p.reproduceTouchedFiles) continue;
    graded++;
    const rank = pbRankMessages(p, unit.task);
    est.calls++;
    est.inputTokens += countChatTokens(input.model, rank);
    est.cachedInputTokens += cache.cached(rank);
    est.outputTokens += ASSUMED_OUTPUT_TOKENS.rank;
    const grade = pbGradeMessages(p, unit.task, "");
    const category = (unit.task.task_category || "Subtree") as keyof typeof p.availContext;
    const filesBudget = Math.max(0, Math.min((p.availContext[category] ?? 0) - 2000, await largestOf(category)));
    est.calls++;
    est.inputTokens += countChatTokens(input.model, grade) + filesBudget;
    est.cachedInputTokens += cache.cached(grade.slice(0, 3));
    est.outputTokens += ASSUMED_OUTPUT_TOKENS.grade;
    est.calls++;
    est.inputTokens +=
      countChatTokens(
        input.parseModel ?? input.model,
        pbParseMessages(p.prompts.simpleJudge, "", unit.task.task_category === "Subtree"),
      ) + ASSUMED_OUTPUT_TOKENS.grade;
    est.outputTokens += ASSUMED_OUTPUT_TOKENS.parse;
  }
  const lanes = Math.max(1, Math.min(input.maxConcurrency, graded));
  return { ...est, durationS: (est.calls / lanes) * latencyS };
}

export async function estimateRun(
  input: JudgeRunInput,
  opts: { latencyS?: number; supportsJsonSchema?: boolean } = {},
): Promise<JudgeEstimate> {
  if (input.mode === "paperbench") return estimatePaperbench(input, opts.latencyS ?? DEFAULT_CALL_LATENCY_S);
  const tree = judgedTree(input.rubric, input.codeDev);
  const leaves = planLeaves(tree, input.maxDepth);
  const p = await prepareSubmission(input, leaves);
  const structured = opts.supportsJsonSchema ?? true;
  const cache = new PrefixCache(input.model);
  const est = { leaves: leaves.length, calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  let gradedLeaves = 0;

  const known = (messages: ChatMessage[], out: number) => {
    est.calls++;
    est.inputTokens += countChatTokens(input.model, messages);
    est.cachedInputTokens += cache.cached(messages);
    est.outputTokens += out;
  };
  /** A prompt whose files are chosen at run time: its known messages plus files up to the room. */
  const withChosenFiles = (
    messagesWithoutFiles: ChatMessage[],
    beforeFiles: ChatMessage[],
    filesTokens: number,
    out: number,
  ) => {
    est.calls++;
    est.inputTokens += countChatTokens(input.model, messagesWithoutFiles) + filesTokens;
    est.cachedInputTokens += cache.cached(beforeFiles);
    est.outputTokens += out;
  };
  const parseCall = (continuous: boolean) => {
    const parsePrompt = countChatTokens(input.model, parseMessages("", continuous)) + ASSUMED_OUTPUT_TOKENS.grade;
    est.calls++;
    est.inputTokens += parsePrompt;
    est.outputTokens += ASSUMED_OUTPUT_TOKENS.parse;
  };

  for (const leaf of leaves) {
    if (shortcutVerdict(p, leaf)) continue;
    gradedLeaves++;
    const category = p.categories.get(leaf.fileCategory)!;
    if (input.mode === "efficient") {
      const full = efficientGradeMessages(p, leaf, category.message, structured);
      const rest = full.filter((m) => m !== category.message);
      const room = filesRoom(p, leaf, rest);
      if (category.messageTokens <= room) known(full, ASSUMED_OUTPUT_TOKENS.grade);
      else {
        known(efficientRankMessages(p, leaf), ASSUMED_OUTPUT_TOKENS.rank);
        const allPlain =
          category.files.reduce((n, f) => n + f.plainTokens + 2, 0) +
          countMessageTokens(input.model, { role: "user", content: "" }) +
          40;
        withChosenFiles(
          rest,
          full.slice(0, full.indexOf(category.message)),
          Math.min(room, allPlain),
          ASSUMED_OUTPUT_TOKENS.grade,
        );
      }
      if (!structured) parseCall(leaf.subtree);
    }
  }
  const latencyS = opts.latencyS ?? DEFAULT_CALL_LATENCY_S;
  const lanes = Math.max(1, Math.min(input.maxConcurrency, gradedLeaves));
  return { ...est, durationS: (est.calls / lanes) * latencyS };
}
