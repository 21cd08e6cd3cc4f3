/**
 * CPU time of processes from /proc (Linux): steadier than latency on a noisy machine, so a bench
 * can say what a request costs besides how long it waited.
 */
import fs from "node:fs";

/** `/proc/<pid>/stat`'s fields after the command name, or null when the process is gone. */
function statFields(pid: number | string): string[] | null {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  } catch {
    return null;
  }
}

const seconds = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)

const pids = () => fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));

/** A live process's CPU time (user + system), in seconds; 0 where there is none. */
export function cpuSeconds(pid: number | undefined): number {
  const fields = pid === undefined ? null : statFields(pid);
  return fields ? seconds(fields) : 0;
}

/** The CPU time of every live process in the process group `pgid` (a studio and its children). */
export function groupCpuSeconds(pgid: number): number {
  let total = 0;
  for (const pid of pids()) {
    const fields = statFields(pid);
    if (fields && Number(fields[2]) === pgid) total += seconds(fields);
  }
  return total;
}

/** Every PostgreSQL backend's CPU time since it started. */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of pids()) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("postgres")) total += cpuSeconds(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}
