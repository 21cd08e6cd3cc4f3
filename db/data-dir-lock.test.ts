import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "./data-dir-lock";

const LOCK_MODULE = path.join(import.meta.dirname, "data-dir-lock.ts");

/** The one-letter state of a process (R, S, Z…) from /proc, or null once it is gone (reaped). */
function processState(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return null;
  }
}

/** Resolves with the first line `child` prints. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing a line: ${out}`)));
  });
}

/** Resolves once `check` holds, checking every 10 ms (the test's own timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-studio-lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("acquireDataDirLock", () => {
  it("refuses a directory held by another live process, naming it", async () => {
    const dir = tempDir();
    // A live process other than this one holds the lock.
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      fs.writeFileSync(path.join(dir, "pglite.lock"), JSON.stringify({ pid: holder.pid, command: "next start" }));
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(`is in use by process ${holder.pid} (next start)`);
    } finally {
      holder.kill();
    }
  });

  it("takes over a lock left by a dead process, and releases it", async () => {
    const dir = tempDir();
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.on("exit", resolve));
    fs.writeFileSync(path.join(dir, "pglite.lock"), JSON.stringify({ pid: dead.pid, command: "crashed" }));
    const release = acquireDataDirLock(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8")).pid).toBe(process.pid);
    release();
    expect(fs.existsSync(path.join(dir, "pglite.lock"))).toBe(false);
  });

  it("takes over the lock of a studio killed with kill -9 whose parent has not reaped it (a zombie)", async () => {
    const dir = tempDir();
    // A node process takes the lock for real, then its parent `exec`s into `sleep`, which never
    // waits for children: once killed, the holder stays a zombie that signal 0 still reaches.
    const holderScript = `import(${JSON.stringify(LOCK_MODULE)}).then((m) => { m.acquireDataDirLock(${JSON.stringify(dir)}); console.log(process.pid); setInterval(() => {}, 1000); })`;
    const parent = spawn("sh", ["-c", `"$0" --import tsx -e "$1" & exec sleep 600`, process.execPath, holderScript], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const holderPid = Number(await firstLine(parent));
      expect(JSON.parse(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8")).pid).toBe(holderPid);
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);

      process.kill(holderPid, "SIGKILL");
      await until(() => processState(holderPid) === "Z");
      const release = acquireDataDirLock(dir);
      expect(JSON.parse(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8")).pid).toBe(process.pid);
      release();
    } finally {
      parent.kill("SIGKILL"); // the zombie goes to init, which reaps it
    }
  });

  it("takes over a lock whose pid now belongs to a process that is not a studio (pid reuse)", async () => {
    const dir = tempDir();
    const other = spawn("sleep", ["600"]);
    try {
      await until(() => processState(other.pid!) !== null);
      fs.writeFileSync(path.join(dir, "pglite.lock"), JSON.stringify({ pid: other.pid, command: "next start" }));
      const release = acquireDataDirLock(dir);
      expect(JSON.parse(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8")).pid).toBe(process.pid);
      release();
    } finally {
      other.kill();
    }
  });
});
