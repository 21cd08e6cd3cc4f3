import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSubmissionArchive, ARCHIVE_LIMITS } from "@/server/submissions/archive";
import { packDirectory } from "@/server/submissions/pack-directory";
import { parseSubmissionArgs, runSubmissionCli, UsageError } from "./submission-cli";

const ENV = { STUDIO_TOKEN: "rst_user_test" };
const BASE = ["upload", "repo", "--paper", "p1", "--agent", "My Agent", "--run", "2"];

describe("parseSubmissionArgs", () => {
  it("reads the upload's fields, the token from STUDIO_TOKEN and the studio from --url, STUDIO_URL or the default", () => {
    expect(parseSubmissionArgs(BASE, ENV)).toEqual({
      source: "repo",
      paper: "p1",
      agent: "My Agent",
      run: 2,
      variant: "full",
      reproduce: false,
      wait: false,
      replace: false,
      url: "http://127.0.0.1:3000",
      token: "rst_user_test",
    });
    expect(
      parseSubmissionArgs([...BASE, "--reproduce", "--wait", "--url", "https://studio.example/"], {
        ...ENV,
        STUDIO_URL: "http://other",
      }),
    ).toMatchObject({
      reproduce: true,
      wait: true,
      url: "https://studio.example",
    });
    expect(
      parseSubmissionArgs([...BASE, "--variant", "code-dev"], { ...ENV, STUDIO_URL: "http://studio:3000" }),
    ).toMatchObject({ variant: "code-dev", url: "http://studio:3000" });
  });

  const usage: [string[], Record<string, string>, RegExp][] = [
    [BASE, {}, /STUDIO_TOKEN is not set/],
    [["download", "repo"], ENV, /unknown command "download"/],
    [["upload", "--paper", "p1", "--agent", "A", "--run", "1"], ENV, /one archive or directory/],
    [BASE.filter((_, i) => i !== 2 && i !== 3), ENV, /--paper <id> is required/],
    [[...BASE.slice(0, 6), "--run", "0"], ENV, /--run must be a whole number/],
    [[...BASE.slice(0, 6), "--run", "two"], ENV, /--run must be a whole number/],
    [[...BASE, "--variant", "partial"], ENV, /--variant must be full or code-dev/],
    [[...BASE, "--variant", "code-dev", "--reproduce"], ENV, /never reproduced/],
    [[...BASE, "--wait"], ENV, /--wait .* needs --reproduce/],
    [[...BASE, "--bogus"], ENV, /bogus/],
    [[...BASE, "--url", "ftp://x"], ENV, /--url must be/],
  ];
  for (const [argv, env, message] of usage) {
    it(`refuses ${argv.join(" ")} ${env.STUDIO_TOKEN ? "" : "without a token "}as a usage error`, () => {
      expect(() => parseSubmissionArgs(argv, env)).toThrow(UsageError);
      expect(() => parseSubmissionArgs(argv, env)).toThrow(message);
    });
  }
});

describe("the submission CLI over HTTP", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-submission-cli-"));
  const repo = path.join(tmp, "repo");
  let server: http.Server;
  let url = "";
  const received: { url: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  let jobPolls = 0;
  let uploadStatus = 201;

  beforeAll(async () => {
    fs.mkdirSync(path.join(repo, "src"), { recursive: true });
    fs.mkdirSync(path.join(repo, ".git"));
    fs.writeFileSync(path.join(repo, "reproduce.sh"), "python src/main.py\n", { mode: 0o755 });
    fs.writeFileSync(path.join(repo, "src", "main.py"), "print(1)\n");
    fs.writeFileSync(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
    fs.symlinkSync("src/main.py", path.join(repo, "main.py"));
    // A stand-in for the studio: the upload route and the job route, as the CLI sees them.
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.setHeader("content-type", "application/json");
        if (req.url!.startsWith("/api/papers/")) {
          res.statusCode = uploadStatus;
          res.end(
            JSON.stringify(
              uploadStatus === 201
                ? {
                    submissionId: "s-1",
                    jobId: req.url!.includes("reproduce=1") ? "j-1" : undefined,
                    files: 2,
                    expandedBytes: 30,
                    sha256: "ab",
                  }
                : {
                    error: {
                      code: "bad_request",
                      message: 'repo.tar.gz was refused: entry "../x" has .. in its path',
                      details: [],
                    },
                  },
            ),
          );
        } else if (req.url === "/api/jobs/j-1") {
          jobPolls++;
          const done = jobPolls >= 3;
          res.end(
            JSON.stringify({
              job: {
                id: "j-1",
                status: done ? "failed" : "running",
                exitCode: done ? 3 : null,
                durationS: done ? 2.5 : null,
                failureReason: done ? "reproduce.sh exited with 3" : null,
                outputs: done ? { files: [{ path: "results.csv", size: 10, changed: true }] } : null,
              },
              logTail: "epoch 1\n",
            }),
          );
        } else {
          res.statusCode = 404;
          res.end("{}");
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function run(argv: string[]) {
    let stdout = "";
    const stderr: string[] = [];
    const code = await runSubmissionCli(
      argv,
      { STUDIO_TOKEN: "rst_user_secret" },
      { stdout: (t) => (stdout += t), stderr: (l) => stderr.push(l) },
    );
    return { code, stdout, stderr };
  }

  it("packs a directory (.git and links kept, paths relative to it) into an archive the studio accepts", async () => {
    const out = path.join(tmp, "packed.tar.gz");
    await packDirectory(repo, out);
    const { archive } = await checkSubmissionArchive(out, "repo.tar.gz", ARCHIVE_LIMITS);
    expect(archive.files.map((f) => f.path)).toEqual(["reproduce.sh", "src/main.py"]);
    expect(archive.notes).toEqual(
      expect.arrayContaining([
        { path: "main.py", reason: "link, not followed" },
        { path: ".git/", reason: "git metadata, not kept" },
      ]),
    );
  });

  it("streams the packed directory with the token and the fields, and prints one JSON object", async () => {
    received.length = 0;
    const { code, stdout, stderr } = await run([
      "upload",
      repo,
      "--paper",
      "p 1",
      "--agent",
      "My Agent",
      "--run",
      "2",
      "--url",
      url,
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ submissionId: "s-1" });
    const [upload] = received;
    const query = new URL(upload.url, url).searchParams;
    expect(upload.url.startsWith("/api/papers/p%201/submissions?")).toBe(true);
    expect(Object.fromEntries(query)).toEqual({ agent: "My Agent", run: "2", variant: "full", name: "repo.tar.gz" });
    expect(upload.headers.authorization).toBe("Bearer rst_user_secret");
    expect(upload.headers["content-type"]).toBe("application/gzip");
    expect(Number(upload.headers["content-length"])).toBe(upload.body.length);
    expect(upload.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(stderr.some((line) => /uploading repo.tar.gz: .* \(100%\)/.test(line))).toBe(true);
  });

  it("with --reproduce --wait polls the job until it is final: exit 1 for a failed job, its outcome in the JSON", async () => {
    const archive = path.join(tmp, "repo.zip");
    fs.writeFileSync(archive, "PK\u0003\u0004 not really a zip");
    const { code, stdout, stderr } = await run([
      "upload",
      archive,
      "--paper",
      "p1",
      "--agent",
      "A",
      "--run",
      "1",
      "--reproduce",
      "--wait",
      "--url",
      url,
    ]);
    expect(code).toBe(1);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      submissionId: "s-1",
      jobId: "j-1",
      status: "failed",
      exitCode: 3,
      durationS: 2.5,
      logTail: "epoch 1\n",
      outputFiles: [{ path: "results.csv", size: 10, changed: true }],
    });
    expect(jobPolls).toBe(3);
    expect(received.at(-4)!.headers["content-type"]).toBe("application/zip");
    expect(stderr).toContain("job j-1 failed: reproduce.sh exited with 3");
  }, 20_000);

  it("a refused upload is exit 1 with the studio's message on stderr and nothing on stdout; a missing source is exit 2", async () => {
    uploadStatus = 400;
    const refused = await run(["upload", repo, "--paper", "p1", "--agent", "A", "--run", "1", "--url", url]);
    uploadStatus = 201;
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.at(-1)).toMatch(/the studio answered 400: repo.tar.gz was refused: entry "..\/x"/);
    const missing = await run([
      "upload",
      path.join(tmp, "nope"),
      "--paper",
      "p1",
      "--agent",
      "A",
      "--run",
      "1",
      "--url",
      url,
    ]);
    expect(missing.code).toBe(2);
  });

  it("an unreachable studio is exit 1 naming it", async () => {
    const { code, stderr } = await run([
      "upload",
      repo,
      "--paper",
      "p1",
      "--agent",
      "A",
      "--run",
      "1",
      "--url",
      "http://127.0.0.1:1",
    ]);
    expect(code).toBe(1);
    expect(stderr.at(-1)).toMatch(/cannot reach the studio at http:\/\/127.0.0.1:1/);
  });
});
