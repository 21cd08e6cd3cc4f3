import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { JobBackend, JobSpawnOptions } from "./job-backend";
import { jobEnvironment, withInheritedFdsClosed } from "./job-environment";
import { descendantsOf, signalAll } from "./process-tree";
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
  "alternatives", "bash.bashrc", "ca-certificates", "ca-certificates.conf", "debian_version", "fonts", "gai.conf",
  "gitconfig", "glvnd", "group", "host.conf", "hosts", "inputrc", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
  "locale.alias", "localtime", "magic", "mime.types", "nsswitch.conf", "nvidia", "OpenCL", "os-release", "passwd",
  "pki", "profile", "protocols", "python3", "resolv.conf", "services", "ssl", "timezone", "vulkan", "xdg",
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
    layout.nvidiaDevices = fs.readdirSync(path.join(root, "dev")).filter((d) => d.startsWith("nvidia")).sort();
  } catch {
    // No /dev to read.
  }
  return layout;
}

/** Where the job's copy and scratch space appear inside the sandbox. */
export const SANDBOX_SUBMISSION = "/submission";
const SANDBOX_TMP = "/tmp";

/**
 * The bubblewrap command line of one job (pure: the tests read it). The system is read-only, the
 * job sees its own copy at /submission and its scratch directory as /tmp (on disk, not in memory:
 * pip and Hugging Face caches are large), fresh /proc and /dev with only its assigned GPUs, no
 * network unless the paper allows it, and new PID, IPC, UTS and user namespaces: when bwrap ends,
 * every process of the job ends with it (--die-with-parent, PID namespace). The environment is not
 * on this line: bwrap passes on its own environment, which the backend sets to the job's alone,
 * so secret values never show in a process listing.
 */
export function bwrapArgs(opts: { dir: string; scratchDir: string; command: string[]; gpuIndices: number[]; network: boolean; layout: HostLayout }): string[] {
  const args = ["--unshare-all"];
  if (opts.network) args.push("--share-net");
  args.push("--die-with-parent", "--new-session", "--hostname", "reproduce");
  for (const dir of opts.layout.systemDirs) args.push("--ro-bind", dir, dir);
  for (const link of opts.layout.systemLinks) args.push("--symlink", link.target, link.path);
  for (const entry of opts.layout.etcEntries) args.push("--ro-bind", entry, entry);
  args.push("--proc", "/proc", "--dev", "/dev");
  if (opts.gpuIndices.length > 0) {
    const wanted = new Set([...opts.gpuIndices.map((i) => `nvidia${i}`), ...NVIDIA_SHARED_DEVICES]);
    for (const device of opts.layout.nvidiaDevices.filter((d) => wanted.has(d))) args.push("--dev-bind", `/dev/${device}`, `/dev/${device}`);
  }
  args.push("--bind", opts.scratchDir, SANDBOX_TMP, "--bind", opts.dir, SANDBOX_SUBMISSION, "--chdir", SANDBOX_SUBMISSION);
  // The root itself (a tmpfs holding the mount points) becomes read-only last, once everything is mounted.
  args.push("--remount-ro", "/", "--", ...opts.command);
  return args;
}

export function bwrapAvailable(): boolean {
  return (process.env.PATH ?? "").split(":").some((dir) => dir !== "" && fs.existsSync(path.join(dir, "bwrap")));
}

/** Untrusted reproduce.sh under bubblewrap: the default wherever `bwrap` is installed. */
export function sandboxBackend(layout: HostLayout = readHostLayout()): JobBackend {
  return {
    name: "sandbox",
    spawnJob(opts: JobSpawnOptions) {
      fs.mkdirSync(path.join(opts.scratchDir, "home"), { recursive: true });
      const env = jobEnvironment({ home: `${SANDBOX_TMP}/home`, tmp: SANDBOX_TMP, gpuIndices: opts.gpuIndices, secrets: opts.secrets });
      const args = bwrapArgs({ ...opts, command: withInheritedFdsClosed(opts.command), layout });
      const child = spawn("bwrap", args, { env: env as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      return trackedProcess(child, {
        // Everything below bwrap is inside the sandbox. SIGTERM goes to those (bwrap would not pass it
        // on, and its death kills the namespace at once, leaving reproduce.sh no grace); SIGKILL to
        // bwrap then tears the whole PID namespace down.
        members: () => (child.pid === undefined ? [] : descendantsOf(child.pid)),
        targets: () => (child.pid === undefined ? [] : descendantsOf(child.pid)),
        finalKill: () => signalAll(child.pid === undefined ? [] : [-child.pid, child.pid], "SIGKILL"),
      });
    },
  };
}
