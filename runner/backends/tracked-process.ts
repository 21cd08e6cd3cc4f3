import type { ChildProcess } from "node:child_process";
import type { JobExit, JobProcess } from "./job-backend";
import { isAlive, signalAll, waitUntil } from "./process-tree";

/**
 * A spawned job command with the backend's way of finding its processes. `members()` names every
 * process of the job still alive (the backend knows how: a process group and an environment
 * marker, a PID namespace's descendants), `targets()` whom to signal; `finalKill()` is the backend's last word (SIGKILL to the
 * sandbox, `docker kill`). After the command exits, whatever it left running is ended too, so
 * `wait()` resolves only when nothing of the job remains.
 */
export function trackedProcess(
  child: ChildProcess,
  backend: {
    members(): number[];
    /** Who gets SIGTERM (then SIGKILL): the members, and for a plain process its group. */
    targets(): number[];
    finalKill(): void | Promise<void>;
    /** How long leftovers of a finished command get between SIGTERM and SIGKILL. */
    leftoverGraceMs?: number;
  },
): JobProcess {
  if (child.pid === undefined) throw new Error(`could not start ${child.spawnfile}`);
  const pid = child.pid;
  let exited = false;
  const exit = new Promise<JobExit>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", () => {
      exited = true;
    });
    child.once("close", (exitCode, signal) => resolve({ exitCode, signal }));
  });
  const alive = () => !exited || backend.members().some(isAlive);

  async function kill(graceMs: number): Promise<void> {
    signalAll(backend.targets(), "SIGTERM");
    if (!(await waitUntil(() => !alive(), graceMs))) {
      await backend.finalKill();
      // Processes can fork while being killed: repeat until none is left.
      await waitUntil(() => {
        signalAll(backend.targets(), "SIGKILL");
        return !alive();
      }, 10_000);
    }
    await exit.catch(() => undefined);
  }

  const finished = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const done = finished.then(async () => {
    if (backend.members().some(isAlive)) await kill(backend.leftoverGraceMs ?? 1000);
    return exit;
  });

  return { pid, stdout: child.stdout!, stderr: child.stderr!, wait: () => done, kill };
}
