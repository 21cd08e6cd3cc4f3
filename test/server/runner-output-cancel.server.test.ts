/**
 * Careless output and cancel (issue 19, items 6, 9 and 12's NUL; "cancel is ignored for short
 * runs"): the built studio, real runner processes (`runner/main.ts`) and real reproduce.sh scripts
 * in the sandbox backend; on PGlite and, when DATABASE_URL is set, PostgreSQL.
 *
 * The heartbeat here is 5 minutes, so a cancel can only arrive through the runner's wait-cancel
 * long poll (or be decided by the studio at completion), never through a heartbeat.
 */
import { gunzipSync } from "node:zlib";
import * as tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstorableText } from "@/lib/text";
import { DEMO_PAPER_ID, api } from "./harness";
import {
  processWithMarker,
  startRunner,
  tarGz,
  uploadSubmission,
  waitForJob,
  type RunnerProcess,
} from "./runner-harness";
import { studioSuite } from "./studio-suite";

const kinds = process.env.DATABASE_URL ? (["pglite", "postgres"] as const) : (["pglite"] as const);
const BACKEND = "sandbox";
/** The runner's log cap in these tests: a few MiB of output is over it. */
const MAX_LOG_BYTES = 1024 * 1024;

describe.each(kinds)("careless output and cancel with runner processes on %s", (kind) => {
  const studio = studioSuite(kind, `runner-output-${kind}`, { env: { JOB_LEASE_S: "900", JOB_HEARTBEAT_S: "300" } });
  let runnerToken: string;
  let runner: RunnerProcess;
  let run = 0;

  beforeAll(async () => {
    const created = await api<{ token: string }>(studio.url, studio.staff, "POST", "/api/runners/tokens", {
      name: `output tests on ${kind}`,
    });
    expect(created.status).toBe(200);
    runnerToken = created.body.token;
    runner = startRunner(studio.url, runnerToken, {
      name: `output-${kind}`,
      backend: BACKEND,
      env: { RUNNER_MAX_LOG_BYTES: String(MAX_LOG_BYTES) },
    });
  });
  // Registered after studioSuite, so it runs first (afterAll hooks run in reverse order): the
  // runner stops while the studio is still up.
  afterAll(async () => {
    await runner?.stop();
  });

  const submit = async (files: Record<string, string>) => {
    const up = await uploadSubmission(
      studio.url,
      { cookie: studio.staff },
      DEMO_PAPER_ID,
      { agent: `Output test · ${kind}`, run: ++run, reproduce: true },
      await tarGz(files),
    );
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    return up.body.jobId!;
  };
  /** The whole log, as the export's `repro_log` (filled by the studio from the stored chunks). */
  const exportedMetadata = async (jobId: string) => {
    const res = await fetch(`${studio.url}/api/jobs/${jobId}/metadata`, { headers: { cookie: studio.staff } });
    expect(res.status).toBe(200);
    return JSON.parse(await res.text()) as Record<string, unknown> & { repro_log: string };
  };

  it("completes a job whose output holds NUL bytes, invalid UTF-8 and a flood of emoji, once, with its status and its whole log made safe", async () => {
    const jobId = await submit({
      "reproduce.sh": [
        "printf 'before\\0after\\n'",
        "printf 'bad utf-8: \\355\\240\\200 \\377 end\\n'",
        "printf 'a'",
        "yes '😀' | head -n 150000 | tr -d '\\n'",
        "echo",
        'echo "the end"',
        "exit 3",
      ].join("\n"),
    });
    const { job, logTail } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job, logTail).toMatchObject({ status: "failed", exitCode: 3, attempts: 1 });
    expect(job.metadata).not.toHaveProperty("repro_log");
    const { repro_log: log } = await exportedMetadata(jobId);
    expect(log).toContain("before\uFFFDafter\n");
    expect(log).toMatch(/bad utf-8: \uFFFD+ \uFFFD end\n/);
    expect(log).toContain("the end\n");
    expect(unstorableText(log)).toBeNull();
    // No emoji lost or broken where the runner cut its chunks.
    expect(log.match(/😀/gu)).toHaveLength(150_000);
  });

  it("caps a job's log at the runner's limit with a marker line, completes the job with its status, and runs it once", async () => {
    const jobId = await submit({
      "reproduce.sh": 'head -c 4000000 /dev/zero | tr "\\0" x | fold -w 100\necho "the end"\nexit 4\n',
    });
    const { job, logTail } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job, logTail).toMatchObject({ status: "failed", exitCode: 4, attempts: 1 });
    const { repro_log: log } = await exportedMetadata(jobId);
    expect(log).toMatch(/\nx+\n\[runner\] the log reached its limit of 1\.0 MiB here; the rest was cut\n$/);
    expect(Buffer.byteLength(log)).toBeLessThanOrEqual(MAX_LOG_BYTES + 200);
    expect(log).not.toContain("the end");
    // reproduce.log is cut the same way (the runner writes it outside the sandbox's limits).
    const reproduceLog = job.outputs?.files.find((f) => f.path === "reproduce.log");
    expect(reproduceLog?.size).toBeGreaterThan(MAX_LOG_BYTES - 200);
    expect(reproduceLog?.size).toBeLessThanOrEqual(MAX_LOG_BYTES + 200);
  });

  it("masks a secret in output file and directory names, link targets, and values broken across lines", async () => {
    const secret = "hf_SeCrEtVaLuE123";
    expect(
      (await api(studio.url, studio.staff, "PUT", `/api/papers/${DEMO_PAPER_ID}/secrets/HF_TOKEN`, { value: secret }))
        .status,
    ).toBe(200);
    try {
      const jobId = await submit({
        "reproduce.sh": [
          'mkdir -p "out-$HF_TOKEN"',
          'echo data > "out-$HF_TOKEN/file-$HF_TOKEN.txt"',
          'ln -s "out-$HF_TOKEN/file-$HF_TOKEN.txt" latest',
          'echo "${HF_TOKEN:0:8}"',
          'echo "${HF_TOKEN:8}"',
          'printf \'%s\\r\\n\' "${HF_TOKEN:0:5}" "${HF_TOKEN:5}"',
          "echo done",
        ].join("\n"),
      });
      const { job, logTail } = await waitForJob(studio.url, studio.staff, jobId);
      expect(job.status, logTail).toBe("succeeded");
      const leaks = (text: string) => ["SeCrE", "VaLuE123", "CrEtVa"].filter((piece) => text.includes(piece));
      expect(leaks(JSON.stringify(job))).toEqual([]);
      expect(job.outputs?.files.map((f) => f.path)).toContain("out-***/file-***.txt");
      const metadata = await exportedMetadata(jobId);
      expect(leaks(JSON.stringify(metadata))).toEqual([]);
      expect(metadata.repro_log).toContain("***\n***\n***\r\n***\r\ndone\n");
      // The archive graders download: names and link targets masked too.
      const res = await fetch(`${studio.url}/api/jobs/${jobId}/outputs`, { headers: { cookie: studio.staff } });
      expect(res.status).toBe(200);
      const entries = await tarEntries(Buffer.from(await res.arrayBuffer()));
      expect(leaks(JSON.stringify(entries))).toEqual([]);
      expect(entries).toContainEqual({ name: "latest", linkname: "out-***/file-***.txt" });
    } finally {
      await api(studio.url, studio.staff, "DELETE", `/api/papers/${DEMO_PAPER_ID}/secrets/HF_TOKEN`);
    }
  });

  it("records a short run cancelled while it runs as cancelled, not as the success it would have been", async () => {
    const jobId = await submit({ "reproduce.sh": 'echo running\nsleep 3\necho "ran to the end"\n' });
    await waitForJob(studio.url, studio.staff, jobId, (a) => a.logTail.includes("running"));
    expect((await api(studio.url, studio.staff, "POST", `/api/jobs/${jobId}/cancel`)).status).toBe(200);
    const { job } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job).toMatchObject({ status: "cancelled", attempts: 1 });
    expect(job.attemptHistory.map((a) => a.status)).toEqual(["cancelled"]);
  });

  it("stops a long run the moment it is cancelled (no heartbeat needed): cancelled, its processes gone", async () => {
    const marker = `${900 + Math.floor(Math.random() * 90)}.${Date.now() % 100000}`;
    const jobId = await submit({ "reproduce.sh": `echo running\n(setsid sleep ${marker} &)\nsleep ${marker}\n` });
    await waitForJob(studio.url, studio.staff, jobId, (a) => a.logTail.includes("running"));
    expect(processWithMarker(marker)).not.toBeNull();
    expect((await api(studio.url, studio.staff, "POST", `/api/jobs/${jobId}/cancel`)).status).toBe(200);
    // Well inside the 5-minute heartbeat: only the wait-cancel long poll can have told the runner.
    const { job, logTail } = await waitForJob(studio.url, studio.staff, jobId);
    expect(job.status).toBe("cancelled");
    expect(logTail).toContain("cancelled: stopping reproduce.sh");
    expect(processWithMarker(marker)).toBeNull();
  });

  it("registers a runner whose name and hostname hold a NUL or a lone surrogate, keeping them with U+FFFD", async () => {
    const res = await fetch(`${studio.url}/api/runner/register`, {
      method: "POST",
      headers: { authorization: `Bearer ${runnerToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "gpu\u0000box",
        capabilities: { gpus: [], cpus: 1, memoryBytes: 1, backend: "local", maxJobs: 1, hostname: "host\ud800" },
      }),
    });
    expect(res.status).toBe(200);
    const { runnerId } = (await res.json()) as { runnerId: string };
    const listed = await api<{ runners: { id: string; name: string; capabilities: { hostname?: string } }[] }>(
      studio.url,
      studio.staff,
      "GET",
      "/api/runners",
    );
    expect(listed.body.runners.find((r) => r.id === runnerId)).toMatchObject({
      name: "gpu\uFFFDbox",
      capabilities: { hostname: "host\uFFFD" },
    });
  });
});

async function tarEntries(archive: Buffer): Promise<{ name: string; linkname?: string }[]> {
  const extract = tar.extract();
  const entries: { name: string; linkname?: string }[] = [];
  extract.on("entry", (header, stream, next) => {
    entries.push(
      header.type === "symlink" ? { name: header.name, linkname: header.linkname ?? undefined } : { name: header.name },
    );
    stream.on("end", next).resume();
  });
  return new Promise((resolve, reject) => {
    extract.on("finish", () => resolve(entries));
    extract.on("error", reject);
    extract.end(gunzipSync(archive));
  });
}
