import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

describe("the runner started by a studio (RUNNER_EXIT_WITH_STDIN)", () => {
  it("exits once its stdin closes, as when the studio that holds it dies", async () => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-stdin-"));
    // A studio address nothing answers on: the runner keeps retrying its registration meanwhile.
    const child = spawn(process.execPath, ["--import", "tsx", "runner/main.ts", "--url", "http://127.0.0.1:9", "--name", "stdin-check", "--work-dir", workDir, "--backend", "local"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", RUNNER_TOKEN: "rst_runner_test", RUNNER_EXIT_WITH_STDIN: "1" } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(child.exitCode).toBeNull();
    child.stdin.end();
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 5_000))]);
    if (code === "still running") child.kill("SIGKILL");
    fs.rmSync(workDir, { recursive: true, force: true });
    expect(code).toBe(0);
    expect(output).toContain("is gone");
  });
});
