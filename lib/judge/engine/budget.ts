/**
 * Token counts and budgets, always with the model family's real tokenizer (never by characters:
 * code, LaTeX and non-English text break any characters-per-token rule). `o200k_base` for the
 * gpt-4o / gpt-4.1 / gpt-4.5 / gpt-5 / o-series families, `cl100k_base` otherwise.
 */
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { LruMap } from "@/lib/lru";
import type { ChatMessage } from "../engine-contract";

export type TokenizerFamily = "o200k" | "cl100k";

/** Special-token text inside a paper or a log is plain text to count, not a control token. */
const PLAIN = { disallowedSpecial: new Set<string>() };

/** The family of a model name; provider prefixes (`openai/o3-mini`, `azure/gpt-4o`) are ignored. */
export function tokenizerFamily(model: string): TokenizerFamily {
  const name = model.toLowerCase().split("/").pop() ?? "";
  return /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)(\b|-|$)/.test(name) ? "o200k" : "cl100k";
}

function encoder(model: string) {
  return tokenizerFamily(model) === "o200k" ? o200k : cl100k;
}

export function encodeText(model: string, text: string): number[] {
  return encoder(model).encode(text, PLAIN);
}

export function decodeTokens(model: string, tokens: number[]): string {
  return encoder(model).decode(tokens);
}

/**
 * Counts by family and text (least recently used dropped first). A leaf's own messages (its
 * criterion with the requirements before it, its answer form) are new objects on every call but the
 * same text for every submission of the paper, and its chosen files are often the same text for
 * many leaves of a submission: counting them again was the judge worker's largest piece of work of
 * its own. The text itself is the key (a string keeps its hash once computed, so a text met again is
 * found without reading it); long texts get a map of their own with fewer places, to bound memory.
 */
const SHORT_TEXT = 8_000;
const counts: Record<TokenizerFamily, { short: LruMap<string, number>; long: LruMap<string, number> }> = {
  o200k: { short: new LruMap(10_000), long: new LruMap(64) },
  cl100k: { short: new LruMap(10_000), long: new LruMap(64) },
};

export function countTextTokens(model: string, text: string): number {
  const family = tokenizerFamily(model);
  const cache = text.length > SHORT_TEXT ? counts[family].long : counts[family].short;
  let n = cache.get(text);
  if (n === undefined) cache.set(text, (n = encoder(model).encode(text, PLAIN).length));
  return n;
}

/**
 * At least as many tokens as `text` has, counted without the tokenizer: a token of these
 * byte-level BPE encodings stands for at least one byte of the UTF-8 text (special-token text
 * included, which is plain text here), so the UTF-8 length bounds the count. Each UTF-16 unit is
 * counted at its longest: a surrogate as 3 bytes (a pair is 4, a lone one is encoded as U+FFFD).
 */
export function textTokensAtMost(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return bytes;
}

/**
 * Tokens of a chat prompt as the endpoint bills them: each message is framed by three tokens
 * (start, separator, end) around its role and content, and the answer is primed by three more.
 */
export const MESSAGE_FRAME_TOKENS = 3;
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Counts remembered per message object: a run's prompts share their big messages (the paper, the
 * log, a category's files) as the same objects, and counting them again for every leaf was most of
 * an estimate's time (a quarter of a second of the studio's thread per run started). The entry is
 * checked against the message's text, so a message changed in place is counted again.
 */
const countedMessages = new WeakMap<ChatMessage, { model: string; role: string; content: string; tokens: number }>();

export function countMessageTokens(model: string, message: ChatMessage): number {
  const known = countedMessages.get(message);
  if (known && known.model === model && known.content === message.content && known.role === message.role)
    return known.tokens;
  const tokens = MESSAGE_FRAME_TOKENS + countTextTokens(model, message.role) + countTextTokens(model, message.content);
  countedMessages.set(message, { model, role: message.role, content: message.content, tokens });
  return tokens;
}

/** At least `countMessageTokens(model, message)`: its content bounded by `textTokensAtMost`, not counted. */
export function messageTokensAtMost(model: string, message: ChatMessage): number {
  return MESSAGE_FRAME_TOKENS + countTextTokens(model, message.role) + textTokensAtMost(message.content);
}

export function countChatTokens(model: string, messages: readonly ChatMessage[]): number {
  let n = REPLY_PRIMING_TOKENS;
  for (const m of messages) n += countMessageTokens(model, m);
  return n;
}

/** The first `maxTokens` tokens of `text` (whole text when it fits). */
export function truncateToTokens(model: string, text: string, maxTokens: number): string {
  const tokens = encodeText(model, text);
  return tokens.length <= maxTokens ? text : decodeTokens(model, tokens.slice(0, Math.max(0, maxTokens)));
}

/**
 * What a prompt may hold: the context window less room for the answer (PaperBench keeps 10k
 * tokens; small windows keep a tenth, so a test's tiny window still leaves room for a prompt).
 */
export function promptBudget(contextWindow: number): number {
  return contextWindow - answerReserve(contextWindow);
}

export function answerReserve(contextWindow: number): number {
  return Math.min(10_000, Math.floor(contextWindow / 10));
}
