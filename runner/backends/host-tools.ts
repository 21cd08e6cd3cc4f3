import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The host-side programs a runner starts around a job (bwrap, slirp4netns, mkfs…), found once at
 * runner start by absolute path in the system's own directories, and run with a fixed environment.
 * Never the job's PATH nor any variable of a job's: a job that managed to write a `bwrap`
 * somewhere, or a paper secret named LD_PRELOAD, must not decide what runs on the host.
 */
export const HOST_TOOL_DIRS = ["/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin", "/usr/local/sbin"];

/** The whole environment of every host-side helper (bwrap included): never the runner's, never a job's. */
export function hostToolEnv(): NodeJS.ProcessEnv {
  const env: Record<string, string> = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C.UTF-8" };
  return env as NodeJS.ProcessEnv;
}

export const HOST_TOOL_NAMES = ["bwrap", "slirp4netns", "nsenter", "ip", "mkfs.ext4", "mount", "umount"] as const;
export type HostToolName = (typeof HOST_TOOL_NAMES)[number];
/** Absolute, link-resolved paths of the tools found; a missing tool is absent. */
export type HostTools = Partial<Record<HostToolName, string>>;

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function findHostTools(dirs: string[] = HOST_TOOL_DIRS): HostTools {
  const tools: HostTools = {};
  for (const name of HOST_TOOL_NAMES) {
    const found = dirs.map((dir) => path.join(dir, name)).find(isExecutableFile);
    if (found) tools[name] = fs.realpathSync(found);
  }
  return tools;
}

let cached: HostTools | null = null;
/** The tools as found the first time anyone asked (at runner start): later changes to the host's directories are not seen. */
export function hostTools(): HostTools {
  cached ??= findHostTools();
  return cached;
}

/** Runs a host tool by its absolute path with the fixed environment; answers its status and stderr. */
export function runHostTool(file: string, args: string[], timeoutMs = 60_000): { ok: boolean; stderr: string } {
  const result = spawnSync(file, args, {
    env: hostToolEnv(),
    stdio: ["ignore", "ignore", "pipe"],
    timeout: timeoutMs,
    encoding: "utf8",
  });
  const stderr = (result.stderr ?? "").trim() || (result.error ? result.error.message : "");
  return { ok: result.status === 0, stderr };
}

/** `runHostTool` without blocking the runner's event loop (its other jobs' heartbeats and logs go on meanwhile). */
export function runHostToolAsync(
  file: string,
  args: string[],
  timeoutMs = 60_000,
): Promise<{ ok: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: hostToolEnv(), stdio: ["ignore", "ignore", "pipe"], timeout: timeoutMs });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", (err) => resolve({ ok: false, stderr: err.message }));
    child.on("close", (code) => resolve({ ok: code === 0, stderr: stderr.trim() }));
  });
}

export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}
