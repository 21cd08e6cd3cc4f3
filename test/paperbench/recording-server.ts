/**
 * Test-only: a local OpenAI-compatible endpoint (POST /v1/chat/completions) that records every
 * request body as sent and answers through a function, so the studio's real `openai` client can
 * be compared call for call with what PaperBench's completer was asked.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedBody {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: unknown;
  [key: string]: unknown;
}

export interface RecordingServer {
  baseUrl: string;
  bodies: RecordedBody[];
  close(): Promise<void>;
}

export async function startRecordingServer(
  answer: (body: RecordedBody) => { content: string; promptTokens: number; completionTokens: number },
): Promise<RecordingServer> {
  const bodies: RecordedBody[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RecordedBody;
      bodies.push(body);
      const a = answer(body);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${bodies.length}`,
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content: a.content }, finish_reason: "stop" }],
          usage: {
            prompt_tokens: a.promptTokens,
            completion_tokens: a.completionTokens,
            total_tokens: a.promptTokens + a.completionTokens,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
