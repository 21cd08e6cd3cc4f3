import fs from "node:fs";
import path from "node:path";
import { hostTools, isRoot, runHostTool, runHostToolAsync, type HostTools } from "./backends/host-tools";

/**
 * A job's disk with a hard cap: a sparse ext4 image of the limit's size, loop-mounted (nosuid,
 * nodev) at `<jobDir>/fs`; the job's copy, its /tmp and its HOME live in it, so a job filling its
 * disk fills only the image and meets ENOSPC. It needs root, mkfs.ext4 and a free loop device;
 * without them the job runs in `<jobDir>` itself and `unenforced` says why.
 */
export interface JobStorage {
  /** Where the job's submission/ and scratch/ go (reproduce's jobDir). */
  root: string;
  /** Why the disk limit is not enforced; null when it is. */
  unenforced: string | null;
  /** Unmounts and removes the image (idempotent). */
  close(): void;
}

const IMAGE = "disk.img";
const MOUNT = "fs";
/** ext4's own metadata and journal-free layout leave this much of a small image unusable; added so a limit means usable space. */
const OVERHEAD_MIB = 8;

/** Made while the submission downloads (`job-execution.ts`), off the runner's event loop. */
export async function openJobStorage(opts: {
  jobDir: string;
  diskLimitMiB: number;
  tools?: HostTools;
}): Promise<JobStorage> {
  const tools = opts.tools ?? hostTools();
  const none = (why: string): JobStorage => ({ root: opts.jobDir, unenforced: why, close: () => undefined });
  if (!isRoot()) return none("the runner is not root (loop mounts need root)");
  if (!tools["mkfs.ext4"] || !tools.mount || !tools.umount) return none("mkfs.ext4, mount or umount is not installed");

  const image = path.join(opts.jobDir, IMAGE);
  const mountPoint = path.join(opts.jobDir, MOUNT);
  fs.mkdirSync(mountPoint, { recursive: true });
  const sizeMiB = opts.diskLimitMiB + Math.min(OVERHEAD_MIB + Math.ceil(opts.diskLimitMiB / 50), 512);
  fs.writeFileSync(image, "");
  fs.truncateSync(image, sizeMiB * 1024 * 1024);
  // No journal (scratch space needs none, and it would take 128 MiB of a large image), no reserved
  // blocks, inode tables initialised lazily and never in the background (noinit_itable): a sparse
  // image costs only what the job writes.
  const mkfs = await runHostToolAsync(tools["mkfs.ext4"], [
    "-q",
    "-F",
    "-m",
    "0",
    "-O",
    "^has_journal",
    "-E",
    "lazy_itable_init=1,nodiscard",
    image,
  ]);
  if (!mkfs.ok) {
    fs.rmSync(image, { force: true });
    return none(`mkfs.ext4 failed: ${mkfs.stderr}`);
  }
  const mount = await runHostToolAsync(tools.mount, ["-o", "loop,nosuid,nodev,noinit_itable", image, mountPoint]);
  if (!mount.ok) {
    fs.rmSync(image, { force: true });
    return none(`the loop mount failed: ${mount.stderr}`);
  }
  fs.rmSync(path.join(mountPoint, "lost+found"), { recursive: true, force: true });
  let closed = false;
  return {
    root: mountPoint,
    unenforced: null,
    close() {
      if (closed) return;
      closed = true;
      // Lazy: a process of ours still holding a file there (the outputs archive's reader) must not keep the image alive.
      runHostTool(tools.umount!, ["-l", mountPoint]);
      fs.rmSync(image, { force: true });
    },
  };
}

/** True when the filesystem holding `dir` has (nearly) no space left: a job that filled its disk. */
export function diskFull(dir: string): boolean {
  try {
    const stat = fs.statfsSync(dir);
    return stat.bavail * stat.bsize < 1024 * 1024;
  } catch {
    return false;
  }
}

/**
 * Unmounts (lazily) every job disk left mounted under `dir` by a runner that died without closing
 * them (SIGKILL, a crash): run at start on the work dir, so a restarted runner cleans up after itself.
 */
export function releaseJobMounts(dir: string, tools: HostTools = hostTools()): void {
  if (!tools.umount || !isRoot()) return;
  const prefix = `${path.resolve(dir)}/`;
  let mountinfo = "";
  try {
    mountinfo = fs.readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return;
  }
  const points = mountinfo
    .split("\n")
    .map((line) =>
      line.split(" ")[4]?.replace(/\\(\d{3})/g, (_m, octal: string) => String.fromCharCode(parseInt(octal, 8))),
    )
    .filter((p): p is string => p !== undefined && p.startsWith(prefix) && p.endsWith(`/${MOUNT}`));
  for (const point of points.sort((a, b) => b.length - a.length)) runHostTool(tools.umount, ["-l", point]);
}
