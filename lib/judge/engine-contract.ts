/**
 * The judge engine's contract: what the studio's worker (server/judge/) and the standalone CLI
 * (`npm run judge -- grade`) hand to the engine, and what it hands back. The engine itself
 * (lib/judge/engine/) is pure TypeScript with its I/O injected: files come through
 * `SubmissionFiles`, model calls through `ChatModel`, so the same code runs in the worker, the CLI
 * and the tests.
 */
import type { JudgeMode } from "./config";
import type { PaperbenchPrompts } from "./paperbench/prompts";

/** A rubric node as the engine reads it (PaperBench's keys; `key` is the studio's stable node key). */
export interface JudgeRubricNode {
  key: string;
  id: string;
  requirements: string;
  weight: number;
  task_category: string | null;
  finegrained_task_category: string | null;
  sub_tasks: JudgeRubricNode[];
}

export interface SubmissionFileInfo {
  /** Relative to the submission's root, `/`-separated. */
  path: string;
  size: number;
  /** Last modification (ms since epoch), to tell what reproduction touched; null when unknown. */
  mtimeMs: number | null;
}

/** One folder of the submission as os.walk yields it: its files (with mtimes) and folders, in listing order. */
export interface SubmissionDirEntry {
  /** Relative to the submission's root, `/`-separated; "" for the root. */
  dir: string;
  dirs: string[];
  /** `mtime` in seconds (os.stat's st_mtime; 0 when it could not be read, NaN when unknown). */
  files: { name: string; mtime: number }[];
}

/** The submission as the judge sees it: the executed copy (full variant) or the submitted one (Code-Dev). */
export interface SubmissionFiles {
  list(): Promise<SubmissionFileInfo[]>;
  /** The file's text by the judge's one rule (lib/judge/engine/judge-file-text.ts), or null when absent. */
  read(path: string): Promise<string | null>;
  /**
   * Paperbench mode: every folder in os.walk order (top-down, pre-order; names in the listing's
   * order — a folder's `fs.opendir` order, an archive's entry order). Links to folders are listed
   * but not walked, as os.walk does.
   */
  walk(): Promise<SubmissionDirEntry[]>;
  /** Paperbench mode: a regular file's first `maxBytes` bytes and mtime (seconds), or null when absent or not a file. */
  readHead(path: string, maxBytes: number): Promise<{ bytes: Uint8Array; mtime: number } | null>;
}

export interface JudgePaper {
  markdown: string;
  addendum: string;
  judgeAddendum: string;
}

/** One model call's usage, as the endpoint reported it (never estimated). */
export interface CallUsage {
  model: string;
  purpose: "rank" | "grade" | "parse";
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Attempts the call took (429s, 5xx, timeouts, an unparseable answer asked again). */
  attempts: number;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** A JSON schema the answer must follow (the endpoint's `response_format: json_schema`), if any. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  reasoningEffort?: "low" | "medium" | "high";
  /** Groups calls that share a prefix, so the provider's prompt cache applies (one per submission). */
  promptCacheKey?: string;
  signal?: AbortSignal;
}

export interface ChatAnswer {
  content: string;
  usage: Omit<CallUsage, "purpose">;
}

/** A Chat Completions endpoint, with its retries and rate limits inside (server/judge/openai-chat-model.ts). */
export interface ChatModel {
  complete(request: ChatRequest): Promise<ChatAnswer>;
  /** Whether the endpoint honours `response_format: json_schema` (else the engine asks a parse call). */
  readonly supportsJsonSchema: boolean;
}

export interface Evidence {
  path: string;
  start_line: number;
  end_line: number;
}

/** The verdict of one leaf (or of a pseudo-leaf: a subtree graded at the max depth). */
export interface LeafVerdict {
  key: string;
  score: number;
  valid: boolean;
  explanation: string;
  evidence: Evidence[];
  /** Every call made for this leaf (ranking, grading, parse, retries counted in `attempts`). */
  calls: CallUsage[];
  /** True when graded as a pseudo-leaf listing its subtree's requirements (max depth). */
  subtree: boolean;
  /** Paperbench mode: the grading call's free-form answer (PaperBench's `judge_metadata.full_judge_response`). */
  fullJudgeResponse?: string | null;
}

export interface JudgeRunInput {
  rubric: JudgeRubricNode;
  paper: JudgePaper;
  submission: SubmissionFiles;
  /** Code-Dev: only Code Development leaves, no reproduce.sh or reproduce.log in the prompts. */
  codeDev: boolean;
  /** PaperBench's `max_depth` (root = 1): internal nodes at this depth are graded as one pseudo-leaf; null: every leaf. */
  maxDepth: number | null;
  mode: JudgeMode;
  model: string;
  parseModel: string | null;
  reasoningEffort: "low" | "medium" | "high" | null;
  contextWindow: number;
  maxConcurrency: number;
  /** One per submission: the prompt cache groups its calls. */
  promptCacheKey: string;
  /**
   * Paperbench mode: PaperBench's prompt texts, read at run start from its constants.py
   * (server/judge/paperbench-prompts.ts), and the clock SimpleJudge reads at its start (ms; default now).
   */
  paperbench?: { prompts: PaperbenchPrompts; now?: number };
}

export interface JudgeRunHooks {
  /** Leaves already graded (a resumed run): not asked again. */
  done?: ReadonlySet<string>;
  /**
   * Called as each verdict arrives, outside its call slot (the next leaf's call starts while this
   * one is stored); the run returns once every call has settled, and stops starting leaves after
   * one rejects, then rejects with it.
   */
  onVerdict?(verdict: LeafVerdict): Promise<void> | void;
  signal?: AbortSignal;
  /**
   * Awaited once the run is prepared (submission read, prompts built) and before its first call:
   * a worker that took the run ahead of its capacity holds it there until a slot frees.
   */
  ready?(): Promise<void>;
}

/** What an estimate says before any call is made (counted from the real prompts with a real tokenizer). */
export interface JudgeEstimate {
  leaves: number;
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** At the configuration's concurrency and an assumed latency per call. */
  durationS: number;
}
