import { spawn } from "node:child_process";
import os from "node:os";
import type { Readable, Writable } from "node:stream";
import { hostToolEnv, runHostTool } from "./host-tools";

/**
 * Outbound network for a sandbox that the paper allows it: the sandbox keeps its own network
 * namespace, and slirp4netns (a user-mode TCP/IP stack, run on the host with a fixed environment)
 * gives it an interface (10.0.2.100) and a default route. `--disable-host-loopback` refuses the
 * host's 127.0.0.1 through the gateway; before the job runs, `prohibit` routes in the namespace
 * refuse link-local (the cloud metadata address 169.254.169.254), the private and shared ranges
 * (the runner's LAN, a studio or database beside it) and every address of the host itself. The
 * job holds no capabilities, so it cannot remove them.
 */
export const PROHIBITED_RANGES = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "224.0.0.0/4",
  "240.0.0.0/4",
];

/** The host's own IPv4 addresses (any service of the host bound to 0.0.0.0 answers on them). */
export function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === "IPv4" && !a.internal)
    .map((a) => `${a!.address}/32`);
}

/** The routes set in the job's namespace, in order (pure: the tests read them). */
export function prohibitRoutes(hostAddrs: string[]): string[][] {
  return [...PROHIBITED_RANGES, ...hostAddrs].map((range) => ["route", "add", "prohibit", range]);
}

export interface SandboxNetwork {
  close(): void;
}

export async function attachNetwork(opts: {
  slirp4netns: string;
  nsenter: string;
  ip: string;
  childPid: number;
  timeoutMs?: number;
}): Promise<SandboxNetwork> {
  const netns = `/proc/${opts.childPid}/ns/net`;
  // fd 3: slirp4netns writes "1" once the interface is up; fd 4: closing our end makes it exit.
  const slirp = spawn(
    opts.slirp4netns,
    [
      "--configure",
      "--mtu=65520",
      "--disable-host-loopback",
      "--enable-sandbox",
      "--enable-seccomp",
      "--ready-fd=3",
      "--exit-fd=4",
      "--netns-type=path",
      netns,
      "tap0",
    ],
    { env: hostToolEnv(), stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
  );
  const exitFd = slirp.stdio[4] as Writable;
  const close = () => {
    exitFd.destroy();
    if (slirp.exitCode === null && slirp.signalCode === null) slirp.kill("SIGTERM");
  };
  let stderr = "";
  slirp.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString("utf8")).slice(-2000)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("slirp4netns did not bring the interface up in time")),
        opts.timeoutMs ?? 15_000,
      );
      (slirp.stdio[3] as Readable).once("data", () => {
        clearTimeout(timer);
        resolve();
      });
      slirp.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      slirp.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`slirp4netns exited with status ${code}: ${stderr.trim().split("\n").slice(-2).join("; ")}`));
      });
    });
    for (const route of prohibitRoutes(hostAddresses())) {
      const result = runHostTool(opts.nsenter, [`--net=${netns}`, "--", opts.ip, ...route], 10_000);
      if (!result.ok) throw new Error(`ip ${route.join(" ")} failed: ${result.stderr}`);
    }
  } catch (err) {
    close();
    throw err;
  }
  slirp.removeAllListeners("exit");
  return { close };
}
