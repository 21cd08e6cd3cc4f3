import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReproduceSettings } from "@/lib/runner/protocol";
import type { JobBackend } from "./backends/job-backend";
import { localBackend } from "./backends/local";
import { bwrapAvailable, sandboxBackend } from "./backends/sandbox";
import { CREATION_TIME_FILE, MISSING_SCRIPT_REASON, reproduce, type ReproduceOptions } from "./reproduce";

/**
 * Real processes, real bubblewrap: reproduce.sh scripts that try to escape. Without bwrap the
 * sandbox half cannot run; in CI that is a failure, not a skip.
 */
const hasBwrap = bwrapAvailable();
if (!hasBwrap && process.env.CI) throw new Error("bwrap (Debian's bubblewrap) is required for the sandbox tests in CI");

// No studio prefix: the log's masking of studio tokens must not be what hides it from this test.
const FAKE_TOKEN = `FAKE-RUNNER-TOKEN-${Date.now()}`;
const settings: ReproduceSettings = {
  timeoutS: 60,
  gpus: 0,
  network: false,
  secrets: {},
  salvageRetryBelowS: 0,
  maxOutputFileBytes: 10 * 1024 * 1024,
};
let workDir: string;

beforeAll(() => {
  // The runner's own secrets, where a curious reproduce.sh would look: its environment, its work dir, its HOME.
  process.env.RUNNER_TOKEN = FAKE_TOKEN;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-runner-test-"));
  fs.writeFileSync(path.join(workDir, "runner-token"), FAKE_TOKEN);
  fs.writeFileSync(path.join(os.homedir(), `.rubric-runner-test-token-${process.pid}`), FAKE_TOKEN);
});
afterAll(() => {
  delete process.env.RUNNER_TOKEN;
  fs.rmSync(path.join(os.homedir(), `.rubric-runner-test-token-${process.pid}`), { force: true });
});

function submission(script: string | null, extra: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(workDir, "source-"));
  if (script !== null) fs.writeFileSync(path.join(dir, "reproduce.sh"), script);
  for (const [name, content] of Object.entries(extra)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

async function run(
  backend: JobBackend,
  script: string | null,
  over: Omit<Partial<ReproduceOptions>, "settings"> & { settings?: Partial<ReproduceSettings> } = {},
) {
  let log = "";
  const jobDir = fs.mkdtempSync(path.join(workDir, "job-"));
  const result = await reproduce({
    backend,
    jobDir,
    sourceRoot: submission(script),
    gpuIndices: [],
    gpuNames: [],
    runnerName: "test-runner",
    attempt: 1,
    spawnName: `t${Date.now()}${Math.random().toString(36).slice(2)}`,
    output: (t) => (log += t),
    cancelled: new Promise(() => undefined),
    killGraceMs: 1000,
    ...over,
    settings: { ...settings, ...over.settings },
  });
  return { result, log, jobDir };
}

function survivors(marker: string): string {
  try {
    return execFileSync("pgrep", ["-af", marker], { encoding: "utf8" });
  } catch {
    return "";
  }
}

const backends: [string, () => JobBackend, boolean][] = [
  ["sandbox", () => sandboxBackend(), hasBwrap],
  ["local", () => localBackend(), true],
];

describe.each(backends)("reproduce with the %s backend", (name, makeBackend, available) => {
  it.runIf(available)(
    "records exit status 3, the log's lines and the creation time written before the run",
    async () => {
      const { result, log } = await run(
        makeBackend(),
        'echo "created: $(cat reproduce.log.creation_time)"\necho to-stderr >&2\necho line-two\nexit 3\n',
      );
      expect(result.status).toBe("failed");
      expect(result.exitCode).toBe(3);
      expect(result.reason).toBe("reproduce.sh exited with status 3");
      expect(result.metadata.exit_code).toBe(3);
      // As PaperBench's `date +%s`: whole seconds, which its judge reads with int().
      expect(log).toMatch(/^created: \d{10}\nto-stderr\nline-two\n$/);
      const created = Number(/created: (\d+)/.exec(log)![1]);
      expect(Math.abs(created - Date.now() / 1000)).toBeLessThan(3600);
      expect(fs.readFileSync(path.join(result.submissionDir, "reproduce.log"), "utf8")).toBe(log);
      expect(fs.existsSync(path.join(result.submissionDir, CREATION_TIME_FILE))).toBe(true);
      expect(result.metadata).toMatchObject({
        repro_script_exists: true,
        timedout: false,
        backend: name,
        runner: "test-runner",
        attempt: 1,
      });
      // The log is not in the metadata: the studio has it from the live log's chunks.
      expect(result.metadata).not.toHaveProperty("repro_log");
    },
  );

  it.runIf(available)(
    "removes the submission's venv and .venv before reproduce.sh runs, as PaperBench does",
    async () => {
      const jobDir = fs.mkdtempSync(path.join(workDir, "job-"));
      const source = submission("ls -a\n");
      for (const dir of ["venv", ".venv", "keep"]) {
        fs.mkdirSync(path.join(source, dir));
        fs.writeFileSync(path.join(source, dir, "marker"), "x");
      }
      let log = "";
      const result = await reproduce({
        backend: makeBackend(),
        jobDir,
        sourceRoot: source,
        settings,
        gpuIndices: [],
        gpuNames: [],
        runnerName: "test-runner",
        attempt: 1,
        spawnName: `v${Date.now()}${Math.random().toString(36).slice(2)}`,
        output: (t) => (log += t),
        cancelled: new Promise(() => undefined),
        killGraceMs: 1000,
      });
      expect(result.status).toBe("succeeded");
      expect(log.split("\n")).toContain("keep");
      expect(log.split("\n")).not.toContain("venv");
      expect(log.split("\n")).not.toContain(".venv");
      expect(fs.existsSync(path.join(result.submissionDir, "venv"))).toBe(false);
      expect(result.ran).toBe(true);
    },
  );

  it.runIf(available)("times out: timed_out, timedout=true, no process left", async () => {
    const marker = `9${Math.floor(Math.random() * 1e8)}`;
    const { result, log } = await run(
      makeBackend(),
      `echo started\n(setsid nohup sleep ${marker} >/dev/null 2>&1 &)\nsleep ${marker}\n`,
      { settings: { timeoutS: 1 } },
    );
    expect(result.status).toBe("timed_out");
    expect(result.metadata.timedout).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(log).toContain("started\n");
    expect(survivors(marker)).toBe("");
  });

  it.runIf(available)("cancel mid-run: SIGTERM to the job, SIGKILL after the grace, nothing survives", async () => {
    const marker = `8${Math.floor(Math.random() * 1e8)}`;
    let cancel!: () => void;
    const cancelled = new Promise<void>((r) => (cancel = r));
    const script = `trap '' TERM\n(setsid nohup bash -c "trap '' TERM; sleep ${marker}" >/dev/null 2>&1 &)\necho running\nsleep ${marker}\n`;
    const pending = run(makeBackend(), script, { cancelled });
    // Both the daemon and the script's own sleep are up before the cancel (polled: no event says so).
    while (survivors(marker).trim().split("\n").length < 2) await new Promise((r) => setTimeout(r, 50));
    cancel();
    const { result } = await pending;
    expect(result.status).toBe("cancelled");
    expect(survivors(marker)).toBe("");
  });

  it.runIf(available)("a daemon forked by reproduce.sh does not outlive the job", async () => {
    const marker = `7${Math.floor(Math.random() * 1e8)}`;
    const { result } = await run(
      makeBackend(),
      `(setsid nohup sleep ${marker} >/dev/null 2>&1 &)\nsleep 0.3\necho done\n`,
    );
    expect(result.status).toBe("succeeded");
    expect(survivors(marker)).toBe("");
  });

  it.runIf(available)("a missing reproduce.sh is a clear failure", async () => {
    const { result } = await run(makeBackend(), null);
    expect(result).toMatchObject({ status: "failed", exitCode: null, reason: MISSING_SCRIPT_REASON });
    expect(result.metadata.repro_script_exists).toBe(false);
    expect(result.metadata.files_after_reproduce).toBeNull();
  });

  it.runIf(available)("masks the paper's secrets in the live log and in reproduce.log", async () => {
    const { result, log } = await run(makeBackend(), 'echo "hf=$HF_TOKEN"\n', {
      settings: { secrets: { HF_TOKEN: "hf_supersecret" } },
    });
    expect(result.status).toBe("succeeded");
    expect(log).toBe("hf=***\n");
    expect(fs.readFileSync(path.join(result.submissionDir, "reproduce.log"), "utf8")).toBe("hf=***\n");
  });

  it.runIf(available)("cuts reproduce.log at the log cap with a marker line; the run goes on to its end", async () => {
    const { result } = await run(
      makeBackend(),
      'head -c 20000 /dev/zero | tr "\\0" x\necho\necho "the end"\nexit 4\n',
      { maxLogBytes: 4096 },
    );
    expect(result).toMatchObject({ status: "failed", exitCode: 4 });
    const kept = fs.readFileSync(path.join(result.submissionDir, "reproduce.log"), "utf8");
    expect(kept).toMatch(/^x{4096}\n\[runner\] reproduce\.log reached its limit of 4\.0 KiB here; the rest was cut\n$/);
  });

  it.runIf(available)(
    "writes reproduce.log and its creation time as new files: a submission's links in their place lead the runner's writes nowhere",
    async () => {
      const canary = path.join(workDir, `canary-${Math.random().toString(36).slice(2)}`);
      fs.writeFileSync(canary, "host file\n");
      const source = submission("echo ran\n");
      fs.symlinkSync(canary, path.join(source, "reproduce.log"));
      fs.symlinkSync(canary, path.join(source, CREATION_TIME_FILE));
      const { result } = await run(makeBackend(), null, { sourceRoot: source });
      expect(result.status).toBe("succeeded");
      expect(fs.readFileSync(canary, "utf8")).toBe("host file\n");
      expect(fs.lstatSync(path.join(result.submissionDir, "reproduce.log")).isFile()).toBe(true);
      expect(fs.readFileSync(path.join(result.submissionDir, "reproduce.log"), "utf8")).toBe("ran\n");
    },
  );

  it.runIf(available)("retries a failed short run once on a fresh copy, never a successful one", async () => {
    const failing = await run(makeBackend(), "echo attempt >> count.txt\ncat count.txt | wc -l\nexit 1\n", {
      settings: { salvageRetryBelowS: 600 },
    });
    expect(failing.result.metadata.retried_results).toHaveLength(1);
    expect(failing.result.metadata.retried_results[0]).toMatchObject({ exit_code: 1, timedout: false });
    // A fresh copy: the first run's count.txt is gone.
    expect(fs.readFileSync(path.join(failing.result.submissionDir, "reproduce.log"), "utf8")).toBe("1\n");
    expect(failing.log).toContain("salvage retry");
    const passing = await run(makeBackend(), "echo ok\n", { settings: { salvageRetryBelowS: 600 } });
    expect(passing.result.metadata.retried_results).toEqual([]);
  });
});

describe.runIf(hasBwrap)("the sandbox keeps the runner's secrets, network and files out of reach", () => {
  it("a reproduce.sh hunting for the runner's token finds nothing", async () => {
    const hunt = [
      "env",
      "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'",
      `ls -la ${workDir} ${os.homedir()} 2>&1`,
      `cat ${workDir}/runner-token ${os.homedir()}/.rubric-runner-test-token-${process.pid} 2>&1`,
      // Everything visible but the host's read-only system folders (/usr, and /opt, which holds 8 GB
      // of wheels on the CI machine: reading them took the test past its time on a cold cache).
      // The pattern split in two, so this script's own text does not match it.
      'grep -r --binary-files=text "FAKE-RUNNER""-TOKEN" / --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev --exclude-dir=usr --exclude-dir=opt 2>/dev/null',
      "echo hunt-finished",
    ].join("\n");
    const { result, log } = await run(sandboxBackend(), hunt);
    expect(log).toContain("hunt-finished");
    expect(log).toContain("No such file or directory");
    expect(log).not.toContain("FAKE-RUNNER-TOKEN");
    expect(result.metadata.files_before_reproduce).not.toContain(FAKE_TOKEN);
    // The same hunt outside the sandbox finds it: the hunt itself works. Its grep searches only the
    // work dir there (the whole host, /var's database files included, took over a minute on a busy machine).
    const control = await run(
      localBackend(),
      hunt.replace(/ \/ --exclude-dir=proc.*2>\/dev\/null/, ` ${workDir} 2>/dev/null`),
    );
    expect(control.log).toContain(FAKE_TOKEN);
    expect(control.log.split(FAKE_TOKEN).length).toBeGreaterThan(2); // the cat and the grep each found it
  });

  describe("network", () => {
    let server: http.Server;
    let port: number;
    beforeAll(async () => {
      server = http.createServer((_req, res) => res.end("studio-reached"));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    const fetchStudio = () =>
      `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;

    it("cannot reach a server on the host when the paper denies network", async () => {
      const { result, log } = await run(sandboxBackend(), `${fetchStudio()}\n`);
      expect(result.status).toBe("failed");
      expect(log).not.toContain("studio-reached");
    });

    it("cannot reach it when the paper allows network either: the sandbox has a network of its own", async () => {
      const { result, log } = await run(
        sandboxBackend(),
        `ip route | grep -q '^default' && echo has-default-route\n${fetchStudio()}\n`,
        { settings: { network: true } },
      );
      expect(log).toContain("has-default-route");
      expect(result.status).toBe("failed");
      expect(log).not.toContain("studio-reached");
      // The same request from the host gets an answer: the server was there to be reached.
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("studio-reached");
    });
  });

  it("cannot write outside /submission: not the system, not the runner's work dir", async () => {
    const script = [
      `echo x > /usr/pwned && echo wrote-usr`,
      `echo x > ${workDir}/pwned && echo wrote-workdir`,
      "echo x > /pwned && echo wrote-root",
      "echo x > /submission/ok && echo wrote-own",
      "echo x > /tmp/ok && echo wrote-tmp",
    ].join("\n");
    const { log } = await run(sandboxBackend(), script);
    expect(log).toContain("wrote-own");
    expect(log).toContain("wrote-tmp");
    expect(log).not.toMatch(/wrote-(usr|workdir|root)/);
    expect(fs.existsSync("/usr/pwned")).toBe(false);
    expect(fs.existsSync(path.join(workDir, "pwned"))).toBe(false);
  });
});

describe.runIf(hasBwrap)("the full reproduce flow on a git repository", () => {
  it("fills every ReproductionMetadata field", async () => {
    const source = submission("echo training\nmkdir -p results && echo 'acc,0.9' > results/table.csv\n", {
      "train.py": "print(1)\n",
    });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=T", ...args], { cwd: source });
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "first commit of the agent");
    let log = "";
    const result = await reproduce({
      backend: sandboxBackend(),
      jobDir: fs.mkdtempSync(path.join(workDir, "job-")),
      sourceRoot: source,
      settings,
      gpuIndices: [],
      gpuNames: ["0: NVIDIA H100 80GB HBM3"],
      runnerName: "gpu-box-1",
      attempt: 2,
      spawnName: `flow${Date.now()}`,
      output: (t) => (log += t),
      cancelled: new Promise(() => undefined),
      killGraceMs: 1000,
    });
    const m = result.metadata;
    expect(result.status).toBe("succeeded");
    expect(m.is_valid_git_repo).toBe(true);
    expect(m.git_log).toContain("first commit of the agent");
    expect(m.repro_script_exists).toBe(true);
    expect(m.files_before_reproduce).toContain("train.py");
    expect(m.files_before_reproduce).not.toContain("table.csv");
    expect(m.files_after_reproduce).toContain("table.csv");
    expect(m.files_after_reproduce).toContain("reproduce.log");
    expect(m.timedout).toBe(false);
    expect(fs.readFileSync(path.join(result.submissionDir, "reproduce.log"), "utf8")).toBe("training\n");
    expect(m.retried_results).toEqual([]);
    expect(m.repro_execution_time).toBeGreaterThan(0);
    expect(m.git_status_after_reproduce).toContain("results/");
    expect(m).toMatchObject({
      exit_code: 0,
      runner: "gpu-box-1",
      gpus: ["0: NVIDIA H100 80GB HBM3"],
      backend: "sandbox",
      attempt: 2,
    });
    expect(log).toBe("training\n");
    expect(fs.readFileSync(path.join(result.submissionDir, "results/table.csv"), "utf8")).toBe("acc,0.9\n");
  });
});
