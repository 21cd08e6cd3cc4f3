/**
 * A local stand-in for an OpenAI-compatible Chat Completions endpoint (POST /v1/chat/completions),
 * scripted per test: verdicts by rule, latency, 429s with retry-after, 500s, malformed answers,
 * hangs, with or without JSON-schema support, usage with cached and reasoning tokens. It counts
 * every prompt with gpt-tokenizer's own chat encoder (`encodeChat`, not the engine's counter), and
 * caches prefixes as OpenAI does (per `prompt_cache_key`, at least 1,024 tokens, in 128-token
 * steps), and keeps its own totals so tests compare them with a run's `token_usage` exactly.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { tokenizerFamily } from "@/lib/judge/engine/budget";
import { RANKING_REQUEST } from "@/lib/judge/engine/prompts";

export interface RecordedRequest {
  /** The request's order of arrival, from 0. */
  n: number;
  /** When it arrived (performance.now() of the server's process, ms). */
  arrivedAt: number;
  model: string;
  messages: { role: string; content: string }[];
  jsonSchemaName: string | null;
  promptCacheKey: string | null;
  reasoningEffort: string | null;
  kind: "rank" | "verdict" | "free-form" | "parse";
  /** What the server answered: a status, or `hang`. */
  outcome: number | "hang";
  usage: { prompt: number; cached: number; completion: number; reasoning: number } | null;
}

export type Fault = "429" | "500" | "malformed" | "hang";

export interface VerdictRule {
  score: number;
  explanation?: string;
  valid?: boolean;
  evidence?: { path: string; start_line: number; end_line: number }[];
}

export interface TestServerScript {
  /** The verdict for a grading request (default: score 1). */
  verdict?(req: RecordedRequest): VerdictRule;
  /** The ranking answer (default: the file tree's files in the order shown). */
  rank?(req: RecordedRequest): string;
  latencyMs?: number | ((req: RecordedRequest) => number);
  /** A fault for this request, or null to answer it. */
  fault?(req: RecordedRequest): Fault | null;
  /** What a 429 asks for (`retry-after-ms`); default 20 ms. */
  retryAfterMs?: number;
  /** Default true; false answers requests with `response_format: json_schema` with a 400. */
  supportsJsonSchema?: boolean;
  reasoningTokens?: number | ((req: RecordedRequest) => number);
}

export interface ServerTotals {
  in: number;
  out: number;
  cached_in: number;
  reasoning_out: number;
  calls: number;
}

export interface OpenAiTestServer {
  /** The base URL to give the client (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Per model: the usage of every answered request (a 200 with usage). */
  totals(): Record<string, ServerTotals>;
  script: TestServerScript;
  close(): Promise<void>;
}

const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * A prompt's tokens by gpt-tokenizer's chat encoder. Each message is framed on its own, so the
 * prompt is its messages' encodings in turn plus the reply's priming; each message's encoding is
 * kept (a judge run repeats its shared messages in every call).
 */
const messageTokenCache = new Map<string, number[]>();
function promptTokens(model: string, messages: { role: string; content: string }[]): number[] {
  const family = tokenizerFamily(model);
  const encodeChat = (chat: { role: "system" | "user" | "assistant"; content: string }[]) =>
    family === "o200k" ? o200k.encodeChat(chat, "gpt-4o", PLAIN) : cl100k.encodeChat(chat, "gpt-4", PLAIN);
  const priming = encodeChat([]);
  const out: number[] = [];
  for (const m of messages) {
    const key = `${family}\u0000${m.role}\u0000${m.content}`;
    let tokens = messageTokenCache.get(key);
    if (!tokens) {
      tokens = encodeChat([{ role: m.role as "system" | "user" | "assistant", content: m.content }]).slice(
        0,
        -priming.length,
      );
      if (messageTokenCache.size > 10_000) messageTokenCache.clear();
      messageTokenCache.set(key, tokens);
    }
    for (const t of tokens) out.push(t);
  }
  for (const t of priming) out.push(t);
  return out;
}

/** The same count without the cache, to check the cache's assembly against (tests). */
export function promptTokensUncached(model: string, messages: { role: string; content: string }[]): number {
  const chat = messages.map((m) => ({ role: m.role as "system" | "user" | "assistant", content: m.content }));
  return tokenizerFamily(model) === "o200k"
    ? o200k.encodeChat(chat, "gpt-4o", PLAIN).length
    : cl100k.encodeChat(chat, "gpt-4", PLAIN).length;
}

function textTokens(model: string, text: string): number {
  return (tokenizerFamily(model) === "o200k" ? o200k : cl100k).encode(text, PLAIN).length;
}

/** The text between `<tag>` and `</tag>` in a request's messages (the criterion, the file tree). */
export function tagged(req: Pick<RecordedRequest, "messages">, tag: string): string | null {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(req.messages[i].content);
    if (m) return m[1];
  }
  return null;
}

function treePaths(tree: string): string[] {
  // Rebuilds full paths from the drawing (each level is 4 characters of prefix).
  const out: string[] = [];
  const stack: string[] = [];
  const lines = tree.split("\n");
  lines.forEach((line, i) => {
    const m = /^((?:[│ ] {3})*)(?:├── |└── )(.*)$/.exec(line);
    if (!m) return;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    const next = lines[i + 1];
    const nextDepth = next ? (/^((?:[│ ] {3})*)(?:├── |└── )/.exec(next)?.[1].length ?? 0) / 4 : 0;
    if (nextDepth <= depth) out.push(stack.join("/"));
  });
  return out;
}

/** Block hashes of a prompt's tokens, 128 at a time, each chained on the one before. */
function blockHashes(tokens: number[]): string[] {
  const out: string[] = [];
  let prev = "";
  for (let end = 128; end <= tokens.length; end += 128) {
    prev = crypto
      .createHash("sha1")
      .update(prev)
      .update(Buffer.from(Int32Array.from(tokens.slice(end - 128, end)).buffer))
      .digest("hex");
    out.push(prev);
  }
  return out;
}

export async function startOpenAiTestServer(script: TestServerScript = {}): Promise<OpenAiTestServer> {
  const requests: RecordedRequest[] = [];
  const totals: Record<string, ServerTotals> = {};
  const cache = new Map<string, Set<string>>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (req.method === "GET" && req.url === "/_stats") {
      // For a server run in its own process (bench): its totals and request count.
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ totals, requests: requests.length, arrivals: requests.map((r) => r.arrivedAt) }));
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void answer(JSON.parse(Buffer.concat(chunks).toString("utf8")), res));
  });

  async function answer(body: Record<string, unknown>, res: http.ServerResponse) {
    const s = handle.script;
    const messages = (body.messages as { role: string; content: string }[]) ?? [];
    const format = body.response_format as { type: string; json_schema?: { name: string } } | undefined;
    const jsonSchemaName = format?.type === "json_schema" ? (format.json_schema?.name ?? "") : null;
    const last = messages[messages.length - 1]?.content ?? "";
    const isParse =
      messages[0]?.role === "system" &&
      messages[0].content.startsWith("The text you are given is a grader's assessment");
    // SimpleJudge's ranking request (paperbench mode) shows its tree after "Directory structure:".
    const simpleJudgeTree =
      jsonSchemaName === null ? (/Directory structure:\n([\s\S]*?)\n\n/.exec(last)?.[1] ?? null) : null;
    const rec: RecordedRequest = {
      n: requests.length,
      arrivedAt: performance.now(),
      model: String(body.model),
      messages,
      jsonSchemaName,
      promptCacheKey: (body.prompt_cache_key as string | undefined) ?? null,
      reasoningEffort: (body.reasoning_effort as string | undefined) ?? null,
      kind: isParse
        ? "parse"
        : last.includes(RANKING_REQUEST) || simpleJudgeTree !== null
          ? "rank"
          : jsonSchemaName
            ? "verdict"
            : "free-form",
      outcome: 200,
      usage: null,
    };
    requests.push(rec);
    const latency = typeof s.latencyMs === "function" ? s.latencyMs(rec) : (s.latencyMs ?? 0);
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      rec.outcome = status;
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
    };
    if (jsonSchemaName !== null && s.supportsJsonSchema === false) {
      return json(400, {
        error: {
          message: "response_format json_schema is not supported by this endpoint",
          type: "invalid_request_error",
        },
      });
    }
    const fault = s.fault?.(rec) ?? null;
    if (fault === "hang") {
      rec.outcome = "hang";
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (fault === "429")
      return json(
        429,
        { error: { message: "Rate limit reached", type: "rate_limit_error" } },
        { "retry-after-ms": String(s.retryAfterMs ?? 20), "retry-after": "1" },
      );
    if (fault === "500") return json(500, { error: { message: "The server had an error", type: "server_error" } });

    let content: string;
    if (fault === "malformed") content = '{"valid_score": true, "score": 1, "explanation": "cut sh';
    else if (rec.kind === "rank")
      content = s.rank ? s.rank(rec) : treePaths(tagged(rec, "file-tree") ?? simpleJudgeTree ?? "").join("\n");
    else if (rec.kind === "parse") {
      const m = /Score:\s*([0-9.]+)/i.exec(last);
      content = JSON.stringify({
        valid_score: !!m,
        score: m ? Number(m[1]) : 0,
        explanation: last.slice(0, 200),
        evidence: [],
      });
    } else {
      const v = s.verdict ? s.verdict(rec) : { score: 1 };
      const explanation = v.explanation ?? `Graded by the test server: ${v.score}.`;
      content =
        rec.kind === "verdict"
          ? JSON.stringify({ valid_score: v.valid ?? true, score: v.score, explanation, evidence: v.evidence ?? [] })
          : `${explanation}\n\nScore: ${v.score}`;
    }

    const tokens = promptTokens(rec.model, messages);
    const key = `${rec.model}\u0000${rec.promptCacheKey ?? ""}`;
    const seen = cache.get(key) ?? new Set<string>();
    cache.set(key, seen);
    const hashes = blockHashes(tokens);
    let blocks = 0;
    while (blocks < hashes.length && seen.has(hashes[blocks])) blocks++;
    const cached = blocks * 128 >= 1024 ? blocks * 128 : 0;
    for (const h of hashes) seen.add(h);
    const reasoning = typeof s.reasoningTokens === "function" ? s.reasoningTokens(rec) : (s.reasoningTokens ?? 0);
    const completion = textTokens(rec.model, content) + reasoning;
    rec.usage = { prompt: tokens.length, cached, completion, reasoning };
    const t = (totals[rec.model] ??= { in: 0, out: 0, cached_in: 0, reasoning_out: 0, calls: 0 });
    t.in += tokens.length;
    t.out += completion;
    t.cached_in += cached;
    t.reasoning_out += reasoning;
    t.calls += 1;
    json(200, {
      id: `chatcmpl-${rec.n}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: rec.model,
      choices: [
        { index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: "stop", logprobs: null },
      ],
      usage: {
        prompt_tokens: tokens.length,
        completion_tokens: completion,
        total_tokens: tokens.length + completion,
        prompt_tokens_details: { cached_tokens: cached },
        completion_tokens_details: { reasoning_tokens: reasoning },
      },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const handle: OpenAiTestServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    totals: () => structuredClone(totals),
    script,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return handle;
}
