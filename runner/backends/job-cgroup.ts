import fs from "node:fs";
import path from "node:path";
import { isAlive } from "./process-tree";

/**
 * Memory and process limits of one sandboxed spawn through the kernel's control groups: cgroup v2
 * where the runner's own group lets it create children with the memory and pids controllers, else
 * cgroup v1's memory and pids hierarchies (each under the runner's own group there, so the limits
 * of whoever runs the runner still hold). A group is made per spawn, the job's first process is
 * put in it before it runs anything (all its descendants follow), and after the spawn ends the
 * group's counters say whether a limit was hit.
 */
export interface JobCgroup {
  /** Puts a process (and so all it will start) in the group. */
  add(pid: number): void;
  /** The limit the job hit, in words ("the memory limit of 512 MiB"), or null. */
  limitHit(): string | null;
  /** Removes the group (its processes must be gone). */
  remove(): void;
}

export interface CgroupLimits {
  memoryMiB: number;
  processes: number;
}

export interface CgroupSupport {
  /** Makes a group with these limits; throws when the kernel refuses. */
  create(name: string, limits: CgroupLimits): JobCgroup;
  version: "v1" | "v2";
}

const read = (file: string) => {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
};
/** A group's name holds the runner's pid: a runner starting later removes what a killed one left (`releaseDeadRunnersGroups`). */
const groupName = (name: string) => `rubric-${process.pid}-${name}`;

/** Removes the empty groups of runners that are no longer running (killed mid-job: no one else would). */
function releaseDeadRunnersGroups(bases: string[]): void {
  for (const base of bases) {
    let entries: string[] = [];
    try {
      entries = fs.readdirSync(base);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const owner = /^rubric-(\d+)-/.exec(entry)?.[1];
      if (owner === undefined || isAlive(Number(owner))) continue;
      rmdirQuietly(path.join(base, entry), 0);
    }
  }
}

/** `key value` lines (memory.events, pids.events, memory.oom_control) → the value of `key`. */
const counter = (text: string, key: string) => Number(new RegExp(`^${key} (\\d+)$`, "m").exec(text)?.[1] ?? 0);

const describeMemory = (l: CgroupLimits) => `the memory limit of ${l.memoryMiB} MiB`;
const describeProcesses = (l: CgroupLimits) => `the process limit of ${l.processes}`;

/** This process's group in each hierarchy, from /proc/self/cgroup (`4:memory:/a/b`, `0::/a`). */
function ownGroups(): Map<string, string> {
  const groups = new Map<string, string>();
  for (const line of read("/proc/self/cgroup").split("\n")) {
    const [, controllers, group] = line.split(":");
    if (group === undefined) continue;
    for (const c of controllers === "" ? [""] : controllers.split(",")) groups.set(c, group);
  }
  return groups;
}

/**
 * Removes a group. The kernel releases a killed process's membership a moment after its parent
 * saw it die, so a group can still count as busy just after the job ended: tried again for a while
 * (in the background) rather than left behind.
 */
function rmdirQuietly(dir: string, triesLeft = 40): void {
  try {
    fs.rmdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EBUSY" && triesLeft > 0)
      setTimeout(() => rmdirQuietly(dir, triesLeft - 1), 50).unref();
  }
}

function v2Support(root: string, group: string): CgroupSupport | null {
  const base = path.join(root, group);
  if (
    !read(path.join(base, "cgroup.controllers")).match(/\bmemory\b/) ||
    !read(path.join(base, "cgroup.controllers")).match(/\bpids\b/)
  )
    return null;
  try {
    // A group holding processes cannot hand controllers to children (no internal processes): this fails unless delegated.
    fs.writeFileSync(path.join(base, "cgroup.subtree_control"), "+memory +pids");
  } catch {
    return null;
  }
  releaseDeadRunnersGroups([base]);
  return {
    version: "v2",
    create(name, limits) {
      const dir = path.join(base, groupName(name));
      fs.mkdirSync(dir);
      try {
        fs.writeFileSync(path.join(dir, "memory.max"), String(limits.memoryMiB * 1024 * 1024));
        if (fs.existsSync(path.join(dir, "memory.swap.max"))) fs.writeFileSync(path.join(dir, "memory.swap.max"), "0");
        fs.writeFileSync(path.join(dir, "pids.max"), String(limits.processes));
      } catch (err) {
        rmdirQuietly(dir);
        throw err;
      }
      return {
        add: (pid) => fs.writeFileSync(path.join(dir, "cgroup.procs"), String(pid)),
        limitHit: () => {
          if (counter(read(path.join(dir, "memory.events")), "oom_kill") > 0) return describeMemory(limits);
          if (counter(read(path.join(dir, "pids.events")), "max") > 0) return describeProcesses(limits);
          return null;
        },
        remove: () => rmdirQuietly(dir),
      };
    },
  };
}

function v1Support(root: string, groups: Map<string, string>): CgroupSupport | null {
  const memoryBase = groups.has("memory") ? path.join(root, "memory", groups.get("memory")!) : null;
  const pidsBase = groups.has("pids") ? path.join(root, "pids", groups.get("pids")!) : null;
  if (!memoryBase || !pidsBase) return null;
  try {
    fs.accessSync(memoryBase, fs.constants.W_OK);
    fs.accessSync(pidsBase, fs.constants.W_OK);
  } catch {
    return null;
  }
  releaseDeadRunnersGroups([memoryBase, pidsBase]);
  return {
    version: "v1",
    create(name, limits) {
      const memory = path.join(memoryBase, groupName(name));
      const pids = path.join(pidsBase, groupName(name));
      fs.mkdirSync(memory);
      try {
        fs.mkdirSync(pids);
        fs.writeFileSync(path.join(memory, "memory.limit_in_bytes"), String(limits.memoryMiB * 1024 * 1024));
        // With swap accounting on, memory+swap gets the same cap: the job cannot swap its way past the limit.
        if (fs.existsSync(path.join(memory, "memory.memsw.limit_in_bytes")))
          fs.writeFileSync(path.join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryMiB * 1024 * 1024));
        fs.writeFileSync(path.join(pids, "pids.max"), String(limits.processes));
      } catch (err) {
        rmdirQuietly(pids);
        rmdirQuietly(memory);
        throw err;
      }
      return {
        add(pid) {
          fs.writeFileSync(path.join(memory, "cgroup.procs"), String(pid));
          fs.writeFileSync(path.join(pids, "cgroup.procs"), String(pid));
        },
        limitHit() {
          if (counter(read(path.join(memory, "memory.oom_control")), "oom_kill") > 0) return describeMemory(limits);
          if (counter(read(path.join(pids, "pids.events")), "max") > 0) return describeProcesses(limits);
          return null;
        },
        remove() {
          rmdirQuietly(memory);
          rmdirQuietly(pids);
        },
      };
    },
  };
}

/** What this host offers, probed once at runner start: v2, else v1, else null (with why). */
export function probeCgroups(root = "/sys/fs/cgroup"): { support: CgroupSupport | null; why: string | null } {
  const groups = ownGroups();
  if (fs.existsSync(path.join(root, "cgroup.controllers"))) {
    const support = v2Support(root, groups.get("") ?? "/");
    return support
      ? { support, why: null }
      : { support: null, why: "cgroup v2 without the memory and pids controllers delegated to the runner" };
  }
  const support = v1Support(root, groups);
  return support ? { support, why: null } : { support: null, why: "no writable cgroup memory and pids hierarchies" };
}
