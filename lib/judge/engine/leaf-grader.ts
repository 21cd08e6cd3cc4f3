/**
 * Grading one leaf (or pseudo-leaf), every call counted. Efficient: the category's files whole
 * when they fit (else a ranking call chooses and they are shown as PaperBench shows them, in at
 * least its room), one grading call answering with the structured verdict (a parse call only for
 * endpoints without JSON-schema output). (Paperbench mode is lib/judge/paperbench/.) An answer that
 * does not parse is asked
 * again once; a leaf is invalid only when its calls failed for good, the error as explanation.
 */
import type { CallUsage, ChatMessage, ChatModel, JudgeRunInput, LeafVerdict } from "../engine-contract";
import {
  EFFICIENT_MAX_FILES,
  efficientGradeMessages,
  efficientRankMessages,
  fillFiles,
  filesRoom,
  filesSurelyFit,
  parseMessages,
  rankedPaths,
} from "./call-messages";
import type { PreparedSubmission } from "./prepare-submission";
import type { PlannedLeaf } from "./rubric-plan";
import { parseVerdict, verdictJsonSchema, type ParsedVerdict } from "./verdict-schema";

export const NO_RESULTS_EXPLANATION =
  "reproduce.sh did not write or change any file, so there are no reproduced results to analyse: every Result Analysis criterion scores 0.";

export class RunAborted extends Error {
  constructor() {
    super("The judge run was cancelled");
    this.name = "RunAborted";
  }
}

interface LeafContext {
  input: JudgeRunInput;
  model: ChatModel;
  prepared: PreparedSubmission;
  signal?: AbortSignal;
}

/** The verdict of a Result Analysis leaf when reproduction wrote nothing, or null to grade it. */
export function shortcutVerdict(p: PreparedSubmission, leaf: PlannedLeaf): LeafVerdict | null {
  if (p.codeDev || leaf.fileCategory !== "Result Analysis" || p.reproductionTouched) return null;
  return {
    key: leaf.key,
    score: 0,
    valid: true,
    explanation: NO_RESULTS_EXPLANATION,
    evidence: [],
    calls: [],
    subtree: false,
  };
}

class LeafCalls {
  readonly calls: CallUsage[] = [];
  constructor(private readonly ctx: LeafContext) {}

  async ask(
    purpose: CallUsage["purpose"],
    model: string,
    messages: ChatMessage[],
    jsonSchema?: { name: string; schema: Record<string, unknown> },
  ): Promise<string> {
    if (this.ctx.signal?.aborted) throw new RunAborted();
    const { input } = this.ctx;
    const answer = await this.ctx.model.complete({
      model,
      messages,
      jsonSchema,
      reasoningEffort: purpose === "parse" ? undefined : (input.reasoningEffort ?? undefined),
      promptCacheKey: input.mode === "efficient" ? input.promptCacheKey : undefined,
      signal: this.ctx.signal,
    });
    this.calls.push({ ...answer.usage, purpose });
    return answer.content;
  }

  /** A call whose answer must be a verdict: asked once more when the first answer does not parse. */
  async askVerdict(
    purpose: CallUsage["purpose"],
    model: string,
    messages: ChatMessage[],
    continuous: boolean,
    schema: boolean,
  ): Promise<ParsedVerdict> {
    let error = "";
    for (let attempt = 0; attempt < 2; attempt++) {
      const text = await this.ask(purpose, model, messages, schema ? verdictJsonSchema(continuous) : undefined);
      const parsed = parseVerdict(text, continuous);
      if (parsed.ok) return parsed.verdict;
      error = parsed.error;
    }
    throw new Error(`The judge's answer could not be read twice: ${error}`);
  }
}

export async function gradeLeaf(ctx: LeafContext, leaf: PlannedLeaf): Promise<LeafVerdict> {
  const shortcut = shortcutVerdict(ctx.prepared, leaf);
  if (shortcut) return shortcut;
  const calls = new LeafCalls(ctx);
  const base = { key: leaf.key, subtree: leaf.subtree };
  try {
    // Paperbench mode does not come here: lib/judge/paperbench/simple-judge.ts is SimpleJudge's port.
    const verdict = await efficientFlow(ctx, calls, leaf);
    return {
      ...base,
      score: verdict.score,
      valid: verdict.valid_score,
      explanation: verdict.explanation,
      evidence: verdict.evidence,
      calls: calls.calls,
    };
  } catch (err) {
    if (ctx.signal?.aborted) throw new RunAborted();
    const message = err instanceof Error ? err.message : String(err);
    return {
      ...base,
      score: 0,
      valid: false,
      explanation: `The judge could not grade this criterion: ${message}`,
      evidence: [],
      calls: calls.calls,
    };
  }
}

async function efficientFlow(ctx: LeafContext, calls: LeafCalls, leaf: PlannedLeaf): Promise<ParsedVerdict> {
  const p = ctx.prepared;
  const { input, model } = ctx;
  const structured = model.supportsJsonSchema;
  const category = p.categories.get(leaf.fileCategory)!;
  const probe = efficientGradeMessages(p, leaf, category.message, structured);
  const withoutFiles = probe.filter((m) => m !== category.message);
  const room = filesSurelyFit(p, leaf, withoutFiles, category.messageTokens) ? null : filesRoom(p, leaf, withoutFiles);
  let files = category.message;
  if (room !== null && category.messageTokens > room) {
    const answer = await calls.ask("rank", input.model, efficientRankMessages(p, leaf));
    // A named file outside the category is read too, as PaperBench reads whatever path the ranking names.
    const named = rankedPaths(answer, null);
    const others = await p.readOthers(named.filter((path) => !category.files.some((f) => f.path === path)));
    const order = named.filter((path) => others.has(path) || category.files.some((f) => f.path === path));
    files = fillFiles(
      p,
      leaf,
      order.length > 0 ? order : category.files.map((f) => f.path),
      room,
      EFFICIENT_MAX_FILES,
      true,
      others,
    );
  }
  const messages = efficientGradeMessages(p, leaf, files, structured);
  if (structured) return calls.askVerdict("grade", input.model, messages, leaf.subtree, true);
  const assessment = await calls.ask("grade", input.model, messages);
  return calls.askVerdict(
    "parse",
    input.parseModel ?? input.model,
    parseMessages(assessment, leaf.subtree),
    leaf.subtree,
    false,
  );
}
