import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { JobBackend, JobSpawnOptions } from "./job-backend";
import { jobEnvironment, withInheritedFdsClosed } from "./job-environment";
import { descendantsOf, processesWithEnv } from "./process-tree";
import { trackedProcess } from "./tracked-process";

/** Every process of a local job inherits this variable: found by it even after it leaves the process group. */
export const LOCAL_JOB_MARKER = "RUBRIC_JOB_MARKER";

/**
 * A plain subprocess in its own process group with a clean environment, for trusted setups: no
 * filesystem or network isolation (the paper's network setting cannot be enforced here).
 */
export function localBackend(): JobBackend {
  return {
    name: "local",
    notices: (settings) => [
      ...(settings.network ? [] : ["the local backend cannot deny reproduce.sh the network"]),
      `the local backend does not enforce the memory limit (${settings.limits.memoryMiB} MiB) nor the process limit (${settings.limits.processes})`,
    ],
    spawnJob(opts: JobSpawnOptions) {
      const home = path.join(opts.scratchDir, "home");
      fs.mkdirSync(home, { recursive: true });
      const env = jobEnvironment({
        home,
        tmp: opts.scratchDir,
        gpuIndices: opts.gpuIndices,
        secrets: opts.secrets,
        extra: { [LOCAL_JOB_MARKER]: opts.name },
      });
      const [file, ...rest] = withInheritedFdsClosed(opts.command);
      const child = spawn(file, rest, {
        cwd: opts.dir,
        env: env as NodeJS.ProcessEnv,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const members = () =>
        child.pid === undefined
          ? []
          : [...new Set([...descendantsOf(child.pid), ...processesWithEnv(LOCAL_JOB_MARKER, opts.name)])];
      return trackedProcess(child, {
        members,
        targets: () => (child.pid === undefined ? [] : [-child.pid, child.pid, ...members()]),
        finalKill: () => undefined,
      });
    },
  };
}
