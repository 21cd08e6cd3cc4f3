import fs from "node:fs";

/**
 * Finding and ending the processes of a job from outside, through /proc: a job's processes may
 * have left its process group (setsid), so a group kill alone does not reach them.
 */

/** pid → parent pid of every process visible now. */
function parentTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "latin1");
      // The command name (field 2) may hold spaces and parentheses: the fields after it start at the last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while the table was read.
    }
  }
  return table;
}

/** Every descendant of `root` (children, their children, …), not `root` itself. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentTable()) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const found: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      found.push(child);
      stack.push(child);
    }
  }
  return found;
}

/** Processes whose environment holds `NAME=value` exactly (a marker a job's processes inherit). */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`);
      if (environ.indexOf(needle) === 0 || environ.includes(Buffer.concat([Buffer.from([0]), needle])))
        found.push(Number(entry));
    } catch {
      // Ended, or not ours to read.
    }
  }
  return found;
}

/** Sends `signal` to each pid (and process group, given as a negative pid), ignoring those already gone. */
export function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, as another user's process (a runner of another uid).
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // A zombie answers signal 0 but is gone for every purpose here.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Waits until `done()` holds or `ms` pass; true when it held. */
export async function waitUntil(done: () => boolean, ms: number, stepMs = 50): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return true;
}
