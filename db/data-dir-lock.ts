import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
    readonly holderCommand: string,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holderPid} (${holderCommand}). ` +
        `PGlite lets only one process open it at a time: stop that process first, ` +
        `or point DATABASE_URL at a PostgreSQL server, or DATA_DIR at another directory.`,
    );
    this.name = "DataDirLockedError";
  }
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

// What a lock holder runs: node (the CLI, tests), or Next.js's server, which renames itself "next-server (v…)".
const STUDIO_COMMAND = /(^|\/)(node|nodejs)(\0|$)|next-server|(^|\/)next(\0|$)/;

/**
 * Whether the process named in a lock can still be using the directory. A signal reaches a zombie
 * too (a process killed with `kill -9` whose parent has not reaped it yet), and a pid is reused
 * after the holder is gone: so on Linux /proc also tells the process's state and what it runs.
 * Elsewhere (no /proc) only the signal check is possible.
 */
export function isLockHolderAlive(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  // Without /proc (not Linux) the signal check is all there is.
  if (!fs.existsSync("/proc/self/stat")) return true;
  let stat: string;
  let cmdline: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return false; // it ended meanwhile
  }
  // The state follows the command name in parentheses (which may itself hold ") "): Z zombie, X dead.
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  if (state === "Z" || state === "X") return false;
  return STUDIO_COMMAND.test(cmdline);
}

/**
 * Takes an exclusive lock on a PGlite data directory, because a second process opening it corrupts
 * it. The lock is a file created with O_EXCL holding the owner's pid; a lock left by a process that
 * is gone (dead, a zombie, or its pid now running something else than node) is taken over.
 * Returns a release function (also run on process exit).
 */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "pglite.lock");
  const command =
    process.argv
      .slice(1)
      .map((a) => path.basename(a))
      .join(" ")
      .slice(0, 200) || "node";
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx");
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, command, since: new Date().toISOString() }));
      fs.closeSync(fd);
      const release = () => {
        try {
          const holder = JSON.parse(fs.readFileSync(lockPath, "utf8")) as { pid: number };
          if (holder.pid === process.pid) fs.unlinkSync(lockPath);
        } catch {
          // Already gone.
        }
        process.off("exit", release);
      };
      process.on("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let holder: { pid?: number; command?: string } = {};
    try {
      holder = JSON.parse(fs.readFileSync(lockPath, "utf8"));
    } catch {
      // A lock file being written right now, or garbage: treat as stale after the retries.
    }
    if (typeof holder.pid === "number" && holder.pid !== process.pid && isLockHolderAlive(holder.pid)) {
      throw new DataDirLockedError(dataDir, holder.pid, holder.command ?? "unknown");
    }
    fs.rmSync(lockPath, { force: true });
  }
  throw new Error(`Could not take the lock on ${lockPath}`);
}
