import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReproduceSettings } from "@/lib/runner/protocol";
import { hostTools, isRoot } from "./backends/host-tools";
import { probeCgroups } from "./backends/job-cgroup";
import { JOB_PATH } from "./backends/job-environment";
import { SANDBOX_HOST_ID, bwrapAvailable, sandboxBackend } from "./backends/sandbox";
import { openJobStorage, releaseJobMounts } from "./job-storage";
import { reproduce } from "./reproduce";

/**
 * Hostile submissions against the real sandbox (bubblewrap, slirp4netns, cgroups, a loop-mounted
 * disk): each reproduce.sh tries what an attacker would, from inside, and the test reads what it
 * got. Without bwrap none of this can run; in CI that is a failure, not a skip. The network and
 * limit tests need root (as the runner has in production and in CI); elsewhere they say why.
 */
const hasBwrap = bwrapAvailable();
if (!hasBwrap && process.env.CI)
  throw new Error("bwrap (Debian's bubblewrap) is required for the hostile-submission suite in CI");
if (process.env.CI && !isRoot())
  throw new Error(
    "the hostile-submission suite runs as root in CI (network namespaces, cgroups and loop mounts need it)",
  );
if (process.env.CI && !hostTools().slirp4netns)
  throw new Error(
    "slirp4netns is required for the hostile-submission suite in CI (scripts/ensure-system-packages.sh installs it)",
  );

const RUNNER_SECRET = `RUNNER-ONLY-${Date.now()}`;
const PAPER_SECRET = `paper-secret-${Date.now()}`;
const settings: ReproduceSettings = {
  timeoutS: 120,
  gpus: 0,
  network: false,
  secrets: {},
  salvageRetryBelowS: 0,
  maxOutputFileBytes: 10 * 1024 * 1024,
};
let workDir: string;

beforeAll(() => {
  process.env.RUNNER_TOKEN = RUNNER_SECRET;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-hostile-"));
  // Searchable by others (not listable), as a runner's work dir made by mkdir is: bwrap can then run as nobody.
  fs.chmodSync(workDir, 0o711);
});
afterAll(() => {
  delete process.env.RUNNER_TOKEN;
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** Runs `script` as reproduce.sh the way the runner does: on a job disk of `diskLimitMiB`, under the sandbox. */
async function hostile(script: string, over: Partial<ReproduceSettings> & { diskLimitMiB?: number } = {}) {
  const jobDir = fs.mkdtempSync(path.join(workDir, "job-"));
  fs.chmodSync(jobDir, 0o755); // as the runner's mkdir makes it
  const source = fs.mkdtempSync(path.join(workDir, "source-"));
  fs.writeFileSync(path.join(source, "reproduce.sh"), script);
  const storage = over.diskLimitMiB ? await openJobStorage({ jobDir, diskLimitMiB: over.diskLimitMiB }) : null;
  let log = "";
  try {
    const result = await reproduce({
      backend: sandboxBackend(),
      jobDir: storage?.root ?? jobDir,
      diskLimitMiB: storage && !storage.unenforced ? over.diskLimitMiB : undefined,
      sourceRoot: source,
      settings: { ...settings, ...over },
      gpuIndices: [],
      gpuNames: [],
      runnerName: "hostile-test",
      attempt: 1,
      spawnName: `h${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
      output: (t) => (log += t),
      cancelled: new Promise(() => undefined),
      killGraceMs: 1000,
    });
    return { result, log, jobDir, storage };
  } finally {
    storage?.close();
  }
}

describe.runIf(hasBwrap)("a hostile reproduce.sh in the sandbox", () => {
  it("holds no capability, cannot remount the read-only system writable, and cannot make a user namespace", async () => {
    const { log } = await hostile(
      [
        "grep -E '^Cap(Eff|Prm|Bnd|Amb):' /proc/self/status",
        "mount -o remount,bind,rw /usr 2>/dev/null && echo REMOUNTED-USR",
        "mount -o remount,bind,rw /etc/passwd 2>/dev/null && echo REMOUNTED-ETC",
        "echo planted > /usr/local/bin/bwrap 2>/dev/null && echo PLANTED",
        "unshare -Ur true 2>/dev/null && echo NESTED-USERNS",
        "unshare -r true 2>/dev/null && echo NESTED-USERNS-2",
        "echo probes-done",
      ].join("\n"),
    );
    expect(log).toContain("probes-done");
    expect(log).toMatch(/CapEff:\s+0000000000000000/);
    expect(log).toMatch(/CapPrm:\s+0000000000000000/);
    expect(log).toMatch(/CapBnd:\s+0000000000000000/);
    expect(log).not.toMatch(/REMOUNTED|PLANTED|NESTED-USERNS/);
    expect(
      fs.existsSync("/usr/local/bin/bwrap") && fs.readFileSync("/usr/local/bin/bwrap", "utf8").includes("planted"),
    ).toBe(false);
  });

  it("sees nothing of the host's paths or the runner's values: not in /proc/1/cmdline, its mounts, its environment or its directory", async () => {
    const { log, jobDir } = await hostile(
      [
        "echo cmdline: $(tr '\\0' ' ' < /proc/1/cmdline)",
        "cat /proc/self/mountinfo",
        "cat /proc/1/environ /proc/self/environ | tr '\\0' '\\n'",
        "echo cwd: $(pwd)",
        "echo probes-done",
      ].join("\n"),
      { diskLimitMiB: 64 },
    );
    expect(log).toContain("probes-done");
    expect(log).toContain("cwd: /submission");
    expect(log).toMatch(/^cmdline: .*bwrap --args 3 -- /m);
    for (const hostValue of [jobDir, workDir, RUNNER_SECRET, process.cwd()]) expect(log).not.toContain(hostValue);
  });

  it("never hands a paper secret to a host-side process, and a secret cannot replace PATH, HOME or TMPDIR", async () => {
    const marker = `${Math.floor(Math.random() * 1e9)}`;
    const pending = hostile(`echo "path=$PATH home=$HOME tmp=$TMPDIR"\nexec sleep 3${marker}\n`, {
      secrets: { HF_TOKEN: PAPER_SECRET, PATH: "/submission/bin", HOME: "/submission", TMPDIR: "/submission" },
    });
    // While the job runs, every process on the host holding the secret in its environment or command line is inside the sandbox.
    const ownUserNs = fs.readlinkSync("/proc/self/ns/user");
    const isSleeper = (pid: number) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(marker);
      } catch {
        return false; // ended meanwhile
      }
    };
    // Polled until the script has exec'd its sleep (no event says so), bounded by the test's timeout alone.
    let sandboxed: number[];
    while (!(sandboxed = processesHolding(PAPER_SECRET)).some(isSleeper)) await new Promise((r) => setTimeout(r, 50));
    for (const pid of sandboxed) expect(fs.readlinkSync(`/proc/${pid}/ns/user`)).not.toBe(ownUserNs);
    // A runner running as root starts the sandbox as nobody: on the host, no job process is root.
    if (isRoot())
      for (const pid of sandboxed)
        expect(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1], `uid of ${pid}`).toBe(
          String(SANDBOX_HOST_ID),
        );
    process.kill(sandboxed.find(isSleeper)!, "SIGKILL");
    const { log } = await pending;
    expect(log).toContain(`path=${JOB_PATH} home=/tmp/home tmp=/tmp`);
  });

  describe("with the network allowed", () => {
    let server: http.Server;
    let port: number;
    beforeAll(async () => {
      server = http.createServer((_req, res) => res.end("host-service-reached"));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    const probe = (host: string, p: number) =>
      `(timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${p} && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3' 2>/dev/null && echo " REACHED-${host}") || echo "refused-${host}"`;

    it.runIf(isRoot() && !!hostTools().slirp4netns)(
      "has its own interface and default route, but not the host's loopback, link-local or own addresses",
      async () => {
        const hostAddr = Object.values(os.networkInterfaces())
          .flat()
          .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
        const { log } = await hostile(
          [
            "ip -o -4 addr show | awk '{print \"addr\", $2, $4}'",
            "ip route | grep '^default' && echo has-default-route",
            probe("127.0.0.1", port),
            probe("10.0.2.2", port),
            probe("169.254.169.254", 80),
            ...(hostAddr ? [probe(hostAddr, port)] : []),
            "echo probes-done",
          ].join("\n"),
          { network: true },
        );
        expect(log).toContain("probes-done");
        expect(log).toMatch(/^addr tap0 10\.0\.2\.100\/24$/m);
        expect(log).toContain("has-default-route");
        expect(log).not.toContain("REACHED");
        expect(log).not.toContain("host-service-reached");
        for (const host of ["127.0.0.1", "10.0.2.2", "169.254.169.254"]) expect(log).toContain(`refused-${host}`);
        // The listener answers from the host: it was there to be reached.
        expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("host-service-reached");
      },
    );
  });

  describe.runIf(isRoot())("limits", () => {
    it("a job filling its disk meets ENOSPC on its own disk and fails for the disk limit", async () => {
      const { result, log, jobDir } = await hostile(
        "dd if=/dev/zero of=/tmp/fill bs=1M count=200 2>&1 | grep -o 'No space left on device'\ndd if=/dev/zero of=/submission/fill bs=1M count=200 2>&1 | grep -o 'No space left on device'\necho wrote\n",
        { diskLimitMiB: 32 },
      );
      expect(log).toBe(
        "No space left on device\nNo space left on device\nwrote\n[runner] reproduce.sh hit the disk limit of 32 MiB\n",
      );
      expect(result.status).toBe("failed");
      expect(result.reason).toBe("reproduce.sh hit the disk limit of 32 MiB");
      // The image is gone with the job: nothing of the 400 MiB asked for stays on the runner's disk.
      expect(fs.readdirSync(jobDir)).toEqual(["fs"]);
    });

    it("a fork bomb stops at the process limit and fails the job for it", async () => {
      // Python's fork fails at once where bash's retries for seconds; the children wait, then all go.
      const script = [
        "python3 - <<'PY'",
        "import os, signal",
        "kids = []",
        "try:",
        "    for _ in range(200):",
        "        pid = os.fork()",
        "        if pid == 0:",
        "            signal.pause()",
        "            os._exit(0)",
        "        kids.append(pid)",
        "except OSError as e:",
        "    print('fork refused after', len(kids))",
        "for k in kids: os.kill(k, 9)",
        "PY",
        "exit 0",
        "",
      ].join("\n");
      const { result, log } = await hostile(script, { processLimit: 32 });
      const started = Number(/fork refused after (\d+)/.exec(log)?.[1]);
      expect(started).toBeGreaterThan(0);
      expect(started).toBeLessThan(32);
      expect(result.status).toBe("failed");
      expect(result.reason).toBe("reproduce.sh hit the process limit of 32");
      expect(log).toContain("[runner] reproduce.sh hit the process limit of 32");
    });

    it("a job allocating past its memory limit is killed and fails for it", async () => {
      const { result, log } = await hostile(
        'python3 -c \'b = bytearray(512 * 1024 * 1024); print("ALLOC" + "ATED", len(b))\'\n',
        { memoryLimitMiB: 128 },
      );
      expect(log).toContain("Killed");
      expect(log).not.toContain("ALLOCATED");
      expect(result.status).toBe("failed");
      expect(result.reason).toBe("reproduce.sh hit the memory limit of 128 MiB");
    });

    it("a runner starting removes the control groups a killed runner left behind", () => {
      const pidsGroup = /^\d+:pids:(.*)$/m.exec(fs.readFileSync("/proc/self/cgroup", "utf8"))?.[1];
      if (pidsGroup === undefined) return expect(probeCgroups().support?.version).toBe("v2");
      const dead = spawnSync("/bin/true").pid;
      const left = path.join("/sys/fs/cgroup/pids", pidsGroup, `rubric-${dead}-job-1-0`);
      const ours = path.join("/sys/fs/cgroup/pids", pidsGroup, `rubric-${process.pid}-job-2-0`);
      fs.mkdirSync(left);
      fs.mkdirSync(ours);
      try {
        expect(probeCgroups().support?.version).toBe("v1");
        expect(fs.existsSync(left)).toBe(false);
        expect(fs.existsSync(ours)).toBe(true);
      } finally {
        for (const dir of [left, ours]) if (fs.existsSync(dir)) fs.rmdirSync(dir);
      }
    });

    it("a job within its limits succeeds", async () => {
      const { result } = await hostile(
        "dd if=/dev/zero of=/tmp/f bs=1M count=4 2>/dev/null\nfor i in 1 2 3; do sleep 0 & done; wait\necho ok\n",
        { diskLimitMiB: 32, processLimit: 32, memoryLimitMiB: 256 },
      );
      expect(result.status).toBe("succeeded");
    });
  });
});

describe.runIf(isRoot() && !!hostTools()["mkfs.ext4"])("the per-job disk", () => {
  it("is released at the next runner start when a killed runner left it mounted", async () => {
    const jobDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-leftdisk-"));
    const storage = await openJobStorage({ jobDir: path.join(jobDir, "jobs", "j-1"), diskLimitMiB: 64 });
    expect(storage.unenforced).toBeNull();
    fs.writeFileSync(path.join(storage.root, "left"), "x");
    // No close(): the runner died. Its work dir cannot be removed while the disk is mounted.
    expect(() => fs.rmSync(jobDir, { recursive: true, force: true })).toThrow(/EBUSY/);
    releaseJobMounts(jobDir);
    fs.rmSync(jobDir, { recursive: true, force: true });
    expect(fs.existsSync(jobDir)).toBe(false);
  });
});

describe("the per-job disk where it cannot be made", () => {
  it("says why the limit is not enforced, and the job runs in its own directory", async () => {
    const jobDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-nodisk-"));
    const storage = await openJobStorage({ jobDir, diskLimitMiB: 64, tools: {} });
    expect(storage.root).toBe(jobDir);
    expect(storage.unenforced).toMatch(isRoot() ? /mkfs\.ext4, mount or umount is not installed/ : /not root/);
    storage.close();
    fs.rmSync(jobDir, { recursive: true, force: true });
  });
});

/** Processes whose environment or command line holds `value`. */
function processesHolding(value: string): number[] {
  const needle = Buffer.from(value);
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (
        fs.readFileSync(`/proc/${entry}/environ`).includes(needle) ||
        fs.readFileSync(`/proc/${entry}/cmdline`).includes(needle)
      )
        found.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}
