import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";

describe("the runner started by a studio (RUNNER_EXIT_WITH_STDIN)", () => {
  it("exits once its stdin closes, as when the studio that holds it dies", async () => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-stdin-"));
    // A studio address nothing answers on: the runner keeps retrying its registration meanwhile.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "runner/main.ts",
        "--url",
        "http://127.0.0.1:9",
        "--name",
        "stdin-check",
        "--work-dir",
        workDir,
        "--backend",
        "local",
      ],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          RUNNER_TOKEN: "rst_runner_test",
          RUNNER_EXIT_WITH_STDIN: "1",
        } as unknown as NodeJS.ProcessEnv,
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      fs.rmSync(workDir, { recursive: true, force: true });
    });
    let output = "";
    let heardRetry!: () => void;
    const retrying = new Promise<void>((resolve) => (heardRetry = resolve));
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
      if (output.includes("the studio is not answering")) heardRetry();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // Retrying its registration (or, wrongly, already gone): only the closed stdin may end it now.
    await Promise.race([retrying, exited]);
    expect(child.exitCode).toBeNull();
    child.stdin.end();
    const code = await exited;
    expect(code).toBe(0);
    expect(output).toContain("is gone");
  });
});
