import { spawn } from "node:child_process";
import type { ModelUsage } from "@/lib/judge/engine/usage";

/**
 * The Chat Completions test server (test/openai-test-server.ts) in its own process, answering each
 * call after `latencyMs`: its counting must not slow the judge's thread (a real endpoint is remote).
 */
export async function startModelServerProcess(latencyMs: number) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/openai-test-server-main.ts", String(latencyMs)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (c: Buffer) => resolve(c.toString().trim()));
    child.once("exit", (code) => reject(new Error(`the test server exited with ${code}`)));
  });
  return {
    baseUrl,
    pid: child.pid!,
    stats: async () =>
      (await (await fetch(baseUrl.replace(/\/v1$/, "/_stats"))).json()) as {
        totals: Record<string, ModelUsage>;
        requests: number;
        /** Each request's arrival, in ms on the server's clock. */
        arrivals: number[];
      },
    close: () => void child.kill(),
  };
}
