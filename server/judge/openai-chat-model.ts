import "server-only";
import OpenAI, { APIConnectionError, APIError } from "openai";
import pLimit from "p-limit";
import type { ChatAnswer, ChatModel, ChatRequest } from "@/lib/judge/engine-contract";
import { countChatTokens } from "@/lib/judge/engine/budget";
import { MinuteRateLimiter, sleep } from "./rate-limiter";

export interface OpenAiChatModelOptions {
  /** Any OpenAI-compatible endpoint's base URL (`…/v1`); null: OpenAI's. */
  baseUrl: string | null;
  apiKey: string;
  /** Default model when a request names none (requests always name theirs in the engine). */
  model?: string;
  supportsJsonSchema?: boolean;
  requestsPerMinute?: number | null;
  tokensPerMinute?: number | null;
  /** Requests in flight at once (the engine bounds leaves; this bounds calls). */
  maxConcurrency?: number;
  /** Retries after the first attempt (429s, 5xx, timeouts, connection errors). */
  maxRetries?: number;
  /** One attempt's limit. */
  timeoutMs?: number;
  /** First backoff step; each retry doubles it, up to `maxBackoffMs`, with jitter. */
  backoffBaseMs?: number;
  maxBackoffMs?: number;
}

export const OPENAI_CHAT_DEFAULTS = {
  maxRetries: 8,
  timeoutMs: 10 * 60_000,
  backoffBaseMs: 1_000,
  maxBackoffMs: 60_000,
} as const;

/** Whether another attempt may succeed: rate limits, server errors, timeouts, lost connections. */
function retryable(err: unknown): boolean {
  if (err instanceof APIConnectionError) return true; // includes timeouts
  if (err instanceof APIError) {
    const s = err.status;
    return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
  }
  return false;
}

/** The server's own wait (`retry-after-ms`, `retry-after` in seconds or as a date), if it gave one. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(parseFloat(ms))) return Math.max(0, parseFloat(ms));
  const after = headers?.get("retry-after");
  if (!after) return null;
  const seconds = parseFloat(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function describe(err: unknown): string {
  if (err instanceof APIError && err.status !== undefined) return `${err.status} ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A ChatModel over the real `openai` client (Chat Completions). The client's own retries are off
 * (`maxRetries: 0`): every attempt is made and counted here. A 429 waits what the server asks,
 * other failures back off exponentially with jitter; none aborts a run, only this call once its
 * retries are spent (the engine then marks that one leaf invalid). Requests and tokens per minute
 * are kept below the configured limits before a call is sent.
 */
export function createOpenAiChatModel(opts: OpenAiChatModelOptions): ChatModel {
  const settings = {
    ...OPENAI_CHAT_DEFAULTS,
    ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
  } as OpenAiChatModelOptions & typeof OPENAI_CHAT_DEFAULTS;
  const client = new OpenAI({
    apiKey: opts.apiKey,
    baseURL: opts.baseUrl ?? undefined,
    maxRetries: 0,
    timeout: settings.timeoutMs,
  });
  const limiter = new MinuteRateLimiter(opts.requestsPerMinute ?? null, opts.tokensPerMinute ?? null);
  const inFlight = pLimit(Math.max(1, opts.maxConcurrency ?? 1_000));

  async function attempt(request: ChatRequest, model: string, estimated: number) {
    await limiter.acquire(estimated, request.signal);
    const completion = await inFlight(() =>
      withCallSignal(request.signal, (signal) =>
        client.chat.completions.create(
          {
            model,
            messages: request.messages,
            ...(request.jsonSchema
              ? {
                  response_format: {
                    type: "json_schema" as const,
                    json_schema: { schema: request.jsonSchema.schema, name: request.jsonSchema.name, strict: true },
                  },
                }
              : {}),
            ...(request.reasoningEffort ? { reasoning_effort: request.reasoningEffort } : {}),
            ...(request.promptCacheKey ? { prompt_cache_key: request.promptCacheKey } : {}),
          },
          { signal, timeout: settings.timeoutMs },
        ),
      ),
    );
    const usage = completion.usage;
    limiter.settle(estimated, usage?.total_tokens ?? estimated);
    return { content: completion.choices[0]?.message?.content ?? "", usage };
  }

  return {
    supportsJsonSchema: opts.supportsJsonSchema ?? true,
    async complete(request: ChatRequest): Promise<ChatAnswer> {
      const model = request.model || opts.model;
      if (!model) throw new Error("No model named for the judge's call");
      // Counting a prompt costs time: only a tokens-per-minute limit needs it before the call.
      const estimated = opts.tokensPerMinute ? countChatTokens(model, request.messages) : 0;
      const attempts = settings.maxRetries + 1;
      for (let n = 1; ; n++) {
        try {
          const { content, usage } = await attempt(request, model, estimated);
          return {
            content,
            usage: {
              model,
              inputTokens: usage?.prompt_tokens ?? 0,
              cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
              outputTokens: usage?.completion_tokens ?? 0,
              reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
              attempts: n,
            },
          };
        } catch (err) {
          if (request.signal?.aborted) throw err;
          if (!retryable(err)) throw new Error(`The endpoint refused the call: ${describe(err)}`);
          if (n >= attempts) throw new Error(`${attempts} attempts failed; the last: ${describe(err)}`);
          const asked = err instanceof APIError && err.status === 429 ? retryAfterMs(err.headers) : null;
          const backoff = Math.min(settings.maxBackoffMs, settings.backoffBaseMs * 2 ** (n - 1));
          // Jitter spreads the retries of many leaves that failed together.
          const wait = asked !== null ? asked * (1 + Math.random() * 0.1) : backoff * (0.5 + Math.random() * 0.5);
          await sleep(wait, request.signal);
        }
      }
    },
  };
}

/**
 * Runs `call` with a signal of its own, aborted when `parent` is. The openai client adds an abort
 * listener to the signal it is given and never removes it: on a judge run's signal (one per run,
 * thousands of calls) the listeners piled up, each holding its call's controller, and every call
 * added its listener more slowly than the last (the list is scanned for duplicates): a tenth of a
 * judge worker's CPU in the evaluation bench. The link to `parent` goes when the call ends.
 */
export async function withCallSignal<T>(
  parent: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!parent) return call(undefined);
  const own = new AbortController();
  const forward = () => own.abort(parent.reason);
  if (parent.aborted) forward();
  parent.addEventListener("abort", forward, { once: true });
  try {
    return await call(own.signal);
  } finally {
    parent.removeEventListener("abort", forward);
  }
}
