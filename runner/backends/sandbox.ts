import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { hostToolEnv, hostTools, isRoot, type HostTools } from "./host-tools";
import type { JobBackend, JobExit, JobSpawnOptions } from "./job-backend";
import { probeCgroups, type CgroupSupport, type JobCgroup } from "./job-cgroup";
import { jobEnvironment, withInheritedFdsClosed } from "./job-environment";
import { descendantsOf, signalAll } from "./process-tree";
import { attachNetwork, type SandboxNetwork } from "./sandbox-network";
import { trackedProcess } from "./tracked-process";

/** What of the host a sandbox may see, read once from the filesystem (`readHostLayout`). */
export interface HostLayout {
  /** Top-level system directories bound read-only (`/usr`, `/opt`, …). */
  systemDirs: string[];
  /** Top-level links recreated as links (`/bin -> usr/bin` on a merged-/usr system). */
  systemLinks: { path: string; target: string }[];
  /** Entries of /etc bound read-only: an allow-list, since a runner's token may sit in /etc (a systemd unit, /etc/default). */
  etcEntries: string[];
  /** /dev/nvidia* device nodes present (`nvidia0`, `nvidiactl`, `nvidia-uvm`, …). */
  nvidiaDevices: string[];
}

const SYSTEM_TOP_LEVEL = ["usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "opt"];

/** What programs need of /etc: users, name resolution, TLS roots, the dynamic linker, Debian's alternatives, fonts, time zone. */
export const ETC_ALLOW_LIST = [
  "alternatives",
  "bash.bashrc",
  "ca-certificates",
  "ca-certificates.conf",
  "debian_version",
  "fonts",
  "gai.conf",
  "gitconfig",
  "glvnd",
  "group",
  "host.conf",
  "hosts",
  "inputrc",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "locale.alias",
  "localtime",
  "magic",
  "mime.types",
  "nsswitch.conf",
  "nvidia",
  "OpenCL",
  "os-release",
  "passwd",
  "pki",
  "profile",
  "protocols",
  "python3",
  "resolv.conf",
  "services",
  "ssl",
  "timezone",
  "vulkan",
  "xdg",
];

/** Device nodes every GPU job needs besides its own /dev/nvidiaN. */
const NVIDIA_SHARED_DEVICES = ["nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset", "nvidia-caps"];

export function readHostLayout(root = "/"): HostLayout {
  const layout: HostLayout = { systemDirs: [], systemLinks: [], etcEntries: [], nvidiaDevices: [] };
  for (const name of SYSTEM_TOP_LEVEL) {
    const p = path.join(root, name);
    try {
      const stat = fs.lstatSync(p);
      if (stat.isSymbolicLink()) layout.systemLinks.push({ path: `/${name}`, target: fs.readlinkSync(p) });
      else if (stat.isDirectory()) layout.systemDirs.push(`/${name}`);
    } catch {
      // Not on this system.
    }
  }
  const etc = new Set(fs.readdirSync(path.join(root, "etc")));
  layout.etcEntries = ETC_ALLOW_LIST.filter((e) => etc.has(e)).map((e) => `/etc/${e}`);
  try {
    layout.nvidiaDevices = fs
      .readdirSync(path.join(root, "dev"))
      .filter((d) => d.startsWith("nvidia"))
      .sort();
  } catch {
    // No /dev to read.
  }
  return layout;
}

/** Where the job's copy and scratch space appear inside the sandbox. */
export const SANDBOX_SUBMISSION = "/submission";
const SANDBOX_TMP = "/tmp";

/** The file descriptors bwrap is given: its arguments, where it reports its child, what it waits on before running the job. */
export const BWRAP_FDS = { args: 3, info: 4, block: 5 } as const;

/**
 * The bubblewrap options of one job (pure: the tests read it); bwrap reads them from a pipe
 * (`--args`), so neither the host's paths nor the job's environment show in a process listing or
 * in the sandbox's /proc/1/cmdline. The system is read-only, the job sees its own copy at
 * /submission and its scratch directory as /tmp (on the job's disk, not in memory: pip and Hugging
 * Face caches are large), fresh /proc and /dev with only its assigned GPUs, and new user, PID,
 * IPC, UTS, cgroup and network namespaces: when bwrap ends, every process of the job ends with it.
 * It holds no capability (`--cap-drop ALL`: bwrap started by root would otherwise keep them all in
 * its namespace, and could remount the read-only binds writable) and cannot make a user namespace
 * of its own to get some back (`--disable-userns`). The environment is the job's alone
 * (`--clearenv`, then `--setenv`); with network allowed the namespace is still the job's own
 * (`sandbox-network.ts` attaches it while bwrap waits on `--block-fd`).
 */
export function bwrapArgs(opts: {
  dir: string;
  scratchDir: string;
  gpuIndices: number[];
  env: Record<string, string>;
  layout: HostLayout;
}): string[] {
  // uid 0 of its own namespace only: on the host it is bwrap's uid (nobody's, when the runner is root: SANDBOX_HOST_ID).
  const args = ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL", "--uid", "0", "--gid", "0"];
  args.push("--die-with-parent", "--new-session", "--hostname", "reproduce");
  for (const dir of opts.layout.systemDirs) args.push("--ro-bind", dir, dir);
  for (const link of opts.layout.systemLinks) args.push("--symlink", link.target, link.path);
  for (const entry of opts.layout.etcEntries) args.push("--ro-bind", entry, entry);
  args.push("--proc", "/proc", "--dev", "/dev");
  if (opts.gpuIndices.length > 0) {
    const wanted = new Set([...opts.gpuIndices.map((i) => `nvidia${i}`), ...NVIDIA_SHARED_DEVICES]);
    for (const device of opts.layout.nvidiaDevices.filter((d) => wanted.has(d)))
      args.push("--dev-bind", `/dev/${device}`, `/dev/${device}`);
  }
  args.push(
    "--bind",
    opts.scratchDir,
    SANDBOX_TMP,
    "--bind",
    opts.dir,
    SANDBOX_SUBMISSION,
    "--chdir",
    SANDBOX_SUBMISSION,
  );
  args.push("--clearenv");
  for (const [name, value] of Object.entries(opts.env)) args.push("--setenv", name, value);
  args.push("--info-fd", String(BWRAP_FDS.info), "--block-fd", String(BWRAP_FDS.block));
  // The root itself (a tmpfs holding the mount points) becomes read-only last, once everything is mounted.
  args.push("--remount-ro", "/");
  return args;
}

/** bwrap's own command line: its options come through the pipe, only the job's command is here. */
export function bwrapCommandLine(command: string[]): string[] {
  return ["--args", String(BWRAP_FDS.args), "--", ...command];
}

export function bwrapAvailable(tools: HostTools = hostTools()): boolean {
  return tools.bwrap !== undefined;
}

/**
 * The host uid and gid a sandbox runs as when the runner is root (nobody's): defence in depth, so
 * that even a way out of the namespaces would hold no privilege on the host. Inside, the job is
 * still uid 0 of its own user namespace, with no capability; its copy and scratch space are handed
 * to this uid before each run.
 */
export const SANDBOX_HOST_ID = 65534;

/** What the sandbox backend uses of the host, found once at runner start. */
export interface SandboxHost {
  layout: HostLayout;
  tools: HostTools;
  cgroups: { support: CgroupSupport | null; why: string | null };
  /** The host uid bwrap runs as (SANDBOX_HOST_ID), or null: the runner's own (not root, or this host refuses unprivileged user namespaces). */
  hostId: number | null;
}

export function probeSandboxHost(): SandboxHost {
  const tools = hostTools();
  const hostId = tools.bwrap && isRoot() && bwrapRunsAs(tools.bwrap, SANDBOX_HOST_ID) ? SANDBOX_HOST_ID : null;
  return { layout: readHostLayout(), tools, cgroups: probeCgroups(), hostId };
}

/** Whether bwrap can make its namespaces as `id` here (a kernel or AppArmor policy may refuse unprivileged user namespaces). */
function bwrapRunsAs(bwrap: string, id: number): boolean {
  const probe = spawnSync(
    bwrap,
    [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--cap-drop",
      "ALL",
      "--ro-bind",
      "/",
      "/",
      "--",
      "/bin/true",
    ],
    {
      env: hostToolEnv(),
      uid: id,
      gid: id,
      stdio: "ignore",
      timeout: 10_000,
    },
  );
  return probe.status === 0;
}

/** Whether another uid can reach `dir` by its path (every directory above it searchable by others). */
function reachableByOthers(dir: string): boolean {
  for (let d = path.dirname(path.resolve(dir)); ; d = path.dirname(d)) {
    if ((fs.statSync(d).mode & 0o001) === 0) return false;
    if (d === "/") return true;
  }
}

function chownTree(dir: string, id: number): void {
  fs.lchownSync(dir, id, id);
  for (const entry of fs.readdirSync(dir, { recursive: true }) as string[])
    fs.lchownSync(path.join(dir, entry), id, id);
}

function networkTools(tools: HostTools) {
  const { slirp4netns, nsenter, ip } = tools;
  return slirp4netns && nsenter && ip && isRoot() ? { slirp4netns, nsenter, ip } : null;
}

/** Untrusted reproduce.sh under bubblewrap: the default wherever `bwrap` is installed. */
export function sandboxBackend(host: SandboxHost = probeSandboxHost()): JobBackend {
  const bwrap = host.tools.bwrap;
  if (!bwrap) throw new Error("bwrap (bubblewrap) is not installed in the system's directories");
  const net = networkTools(host.tools);
  return {
    name: "sandbox",
    notices(settings) {
      const lines: string[] = [];
      if (settings.network && !net)
        lines.push(
          `network off: the paper allows it, but the runner cannot give the sandbox its own network here (${isRoot() ? "slirp4netns, nsenter or ip is not installed" : "attaching it needs root"}), and never shares the host's`,
        );
      if (!host.cgroups.support)
        lines.push(
          `the memory limit (${settings.limits.memoryMiB} MiB) and the process limit (${settings.limits.processes}) are not enforced: ${host.cgroups.why}`,
        );
      return lines;
    },
    spawnJob(opts: JobSpawnOptions) {
      fs.mkdirSync(path.join(opts.scratchDir, "home"), { recursive: true });
      // As nobody where bwrap can reach the job's directories as nobody (a work dir under a private
      // directory keeps the runner's uid: the sandbox is just as closed, the host uid is root's).
      const hostId =
        host.hostId !== null && reachableByOthers(opts.dir) && reachableByOthers(opts.scratchDir) ? host.hostId : null;
      if (hostId !== null) for (const dir of [opts.dir, opts.scratchDir]) chownTree(dir, hostId);
      const env = jobEnvironment({
        home: `${SANDBOX_TMP}/home`,
        tmp: SANDBOX_TMP,
        gpuIndices: opts.gpuIndices,
        secrets: opts.secrets,
      });
      const args = bwrapArgs({ ...opts, env, layout: host.layout });
      let cgroup: JobCgroup | null = null;
      let setupError: string | null = null;
      try {
        cgroup = host.cgroups.support?.create(opts.name, opts.limits) ?? null;
      } catch (err) {
        setupError = `its control group could not be made: ${(err as Error).message}`;
      }
      // bwrap runs with the fixed host environment, never the job's: the job's goes in through --setenv.
      const child = spawn(bwrap, bwrapCommandLine(withInheritedFdsClosed(opts.command)), {
        env: hostToolEnv(),
        ...(hostId !== null ? { uid: hostId, gid: hostId } : {}),
        detached: true,
        stdio: ["ignore", "pipe", "pipe", "pipe", "pipe", "pipe"],
      });
      const fds = child.stdio as unknown as [null, Readable, Readable, Writable, Readable, Writable];
      // bwrap closes these when it is done with them (or dies): that is no error of the job's.
      for (const fd of Object.values(BWRAP_FDS)) fds[fd].on("error", () => undefined);
      fds[BWRAP_FDS.args].end(Buffer.from(args.map((a) => `${a}\0`).join("")));
      let network: SandboxNetwork | null = null;
      let childPid: number | null = null;
      const setup = (async () => {
        if (setupError) throw new Error(setupError);
        childPid = await readChildPid(fds[BWRAP_FDS.info]);
        cgroup?.add(childPid);
        if (opts.network && net) network = await attachNetwork({ ...net, childPid });
        fds[BWRAP_FDS.block].end("go");
      })().catch((err: Error) => {
        setupError ??= err.message;
        // The sandbox's first process too: it may not yet be tied to bwrap's life (--die-with-parent).
        signalAll(
          [...(childPid === null ? [] : [childPid]), ...(child.pid === undefined ? [] : [child.pid])],
          "SIGKILL",
        );
      });
      const proc = trackedProcess(child, {
        // Everything below bwrap is inside the sandbox. SIGTERM goes to those (bwrap would not pass it
        // on, and its death kills the namespace at once, leaving reproduce.sh no grace); SIGKILL to
        // bwrap then tears the whole PID namespace down.
        members: () => (child.pid === undefined ? [] : descendantsOf(child.pid)),
        targets: () => (child.pid === undefined ? [] : descendantsOf(child.pid)),
        finalKill: () => signalAll(child.pid === undefined ? [] : [-child.pid, child.pid], "SIGKILL"),
      });
      const done = proc
        .wait()
        .then(async (exit): Promise<JobExit> => {
          await setup;
          const limitHit = cgroup?.limitHit() ?? null;
          return { ...exit, limitHit, setupError: setupError && `the sandbox could not be set up: ${setupError}` };
        })
        .finally(() => {
          (network as SandboxNetwork | null)?.close();
          cgroup?.remove();
        });
      return { ...proc, wait: () => done };
    },
  };
}

/**
 * bwrap's `--info-fd` report: `{"child-pid": 123, …}`, the job's first process as the host sees it.
 * Read to its end (bwrap closes it once written): closing our end early would kill bwrap with
 * SIGPIPE mid-setup and leave its child waiting forever.
 */
async function readChildPid(info: Readable): Promise<number> {
  let text = "";
  for await (const chunk of info) text += (chunk as Buffer).toString("utf8");
  const match = /"child-pid":\s*(\d+)/.exec(text);
  if (!match) throw new Error("bwrap ended before it started the sandbox");
  return Number(match[1]);
}
