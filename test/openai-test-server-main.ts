/**
 * The Chat Completions test server in a process of its own (`node --import tsx
 * test/openai-test-server-main.ts <latency ms>`), so that its token counting does not share the
 * judge's thread (a real endpoint is remote). Prints its base URL, then serves until killed;
 * `GET /_stats` answers its totals.
 */
import { startOpenAiTestServer } from "./openai-test-server";

const server = await startOpenAiTestServer({ latencyMs: Number(process.argv[2] ?? 0) });
process.stdout.write(`${server.baseUrl}\n`);
