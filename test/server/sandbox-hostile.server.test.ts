/**
 * The sandbox escape of issue 19, end to end: the built studio, a real runner process with the
 * sandbox backend, and a hostile reproduce.sh that tries to plant a `bwrap` for the runner's next
 * job to run on the host (remounting the read-only system writable, as root in its namespace). The
 * next job must run the real bwrap: the planted one, which would record the runner's command line
 * and environment on the host, never runs. A `bwrap` first on the runner's own PATH is not run
 * either: the runner finds its tools once, by absolute path in the system's directories.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PAPER_ID, api } from "./harness";
import { startRunner, tarGz, uploadSubmission, waitForJob, type RunnerProcess } from "./runner-harness";
import { studioSuite } from "./studio-suite";

if (!fs.existsSync("/usr/bin/bwrap") && process.env.CI)
  throw new Error("bwrap (Debian's bubblewrap) is required for the hostile-submission suite in CI");

const marker = `escape-${process.pid}-${Date.now()}`;
/** Where a planted bwrap would leave its proof of having run on the host. */
const proof = path.join(os.tmpdir(), `${marker}.proof`);
const fakeBwrap = `#!/bin/sh\n# ${marker}\n{ id; echo "$@"; cat /proc/$$/environ | tr '\\0' '\\n'; } > ${proof}\nexec /usr/bin/bwrap "$@"\n`;
const PLANT_TARGETS = ["/usr/local/bin/bwrap", "/usr/local/sbin/bwrap", "/usr/bin/bwrap"];

describe.runIf(fs.existsSync("/usr/bin/bwrap"))("a hostile submission against a real runner", () => {
  let runner: RunnerProcess;
  let pathDir: string;

  // Registered before studioSuite, so it runs last (afterAll hooks run in reverse order): after the
  // runner and the studio have stopped and the database is dropped.
  afterAll(async () => {
    fs.rmSync(pathDir, { recursive: true, force: true });
    // Were the sandbox broken, the planted file would be on this host: take it away again (only ours).
    for (const target of PLANT_TARGETS)
      if (fs.existsSync(target) && fs.readFileSync(target, "utf8").includes(marker)) fs.rmSync(target);
    fs.rmSync(proof, { force: true });
  });
  const studio = studioSuite("pglite", "sandbox-hostile");

  beforeAll(async () => {
    const created = await api<{ token: string }>(studio.url, studio.staff, "POST", "/api/runners/tokens", {
      name: "hostile tests",
    });
    expect(created.status).toBe(200);
    // A bwrap first on the runner's own PATH: a runner that looked tools up there would run it.
    pathDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-hostile-path-"));
    fs.writeFileSync(path.join(pathDir, "bwrap"), fakeBwrap, { mode: 0o755 });
    runner = startRunner(studio.url, created.body.token, {
      name: "hostile-runner",
      backend: "sandbox",
      env: { PATH: `${pathDir}:${process.env.PATH}` },
    });
  });
  // Registered after studioSuite, so it runs first (afterAll hooks run in reverse order): the
  // runner stops while the studio is still up.
  afterAll(async () => {
    await runner?.stop();
  });

  let run = 0;
  const submit = async (script: string) => {
    const up = await uploadSubmission(
      studio.url,
      { cookie: studio.staff },
      DEMO_PAPER_ID,
      { agent: "Hostile agent", run: ++run, reproduce: true },
      await tarGz({ "reproduce.sh": script, "fake-bwrap": fakeBwrap }),
    );
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    return up.body.jobId!;
  };

  it("cannot plant a bwrap for the runner's next job: no capability, no writable remount, and the next job runs the real one", async () => {
    const planting = [
      "grep '^CapEff:' /proc/self/status",
      "for dir in /usr /usr/local /usr/local/bin /; do mount -o remount,bind,rw $dir 2>/dev/null && echo REMOUNTED $dir; done",
      ...PLANT_TARGETS.map((t) => `cp fake-bwrap ${t} 2>/dev/null && chmod 755 ${t} && echo PLANTED ${t}`),
      "unshare -Ur true 2>/dev/null && echo NESTED-USERNS",
      "echo attempt-done",
    ].join("\n");
    const first = await waitForJob(studio.url, studio.staff, await submit(planting));
    expect(first.job.status, first.logTail).toBe("succeeded");
    expect(first.logTail).toContain("attempt-done");
    expect(first.logTail).toMatch(/CapEff:\s+0000000000000000/);
    expect(first.logTail).not.toMatch(/REMOUNTED|PLANTED|NESTED-USERNS/);

    const second = await waitForJob(studio.url, studio.staff, await submit("echo second-job-ran\n"));
    expect(second.job.status, second.logTail).toBe("succeeded");
    expect(second.logTail).toContain("second-job-ran");
    // Neither the planted file nor the one first on the runner's PATH ran on the host.
    expect(fs.existsSync(proof)).toBe(false);
    for (const target of PLANT_TARGETS)
      expect(fs.existsSync(target) && fs.readFileSync(target, "utf8").includes(marker), target).toBe(false);
  });
});
