import { describe, expect, it } from "vitest";
import { dockerRunArgs } from "./docker";
import { jobEnvironment } from "./job-environment";
import { bwrapArgs, type HostLayout } from "./sandbox";

const layout: HostLayout = {
  systemDirs: ["/usr", "/opt"],
  systemLinks: [{ path: "/bin", target: "usr/bin" }],
  etcEntries: ["/etc/passwd", "/etc/ssl"],
  nvidiaDevices: ["nvidia-caps", "nvidia-uvm", "nvidia0", "nvidia1", "nvidia2", "nvidiactl"],
};
const base = { dir: "/work/jobs/j1/submission", scratchDir: "/work/jobs/j1/scratch", command: ["bash", "reproduce.sh"], layout };

/** The arguments following each occurrence of `flag`. */
function after(args: string[], flag: string, n: number): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + n)] : []));
}

describe("bwrapArgs", () => {
  it("binds the system read-only, the job's copy writable at /submission and its scratch as /tmp, and nothing else", () => {
    const args = bwrapArgs({ ...base, gpuIndices: [], network: false });
    expect(after(args, "--ro-bind", 2)).toEqual([["/usr", "/usr"], ["/opt", "/opt"], ["/etc/passwd", "/etc/passwd"], ["/etc/ssl", "/etc/ssl"]]);
    expect(after(args, "--bind", 2)).toEqual([["/work/jobs/j1/scratch", "/tmp"], ["/work/jobs/j1/submission", "/submission"]]);
    expect(after(args, "--symlink", 2)).toEqual([["usr/bin", "/bin"]]);
    expect(after(args, "--chdir", 1)).toEqual([["/submission"]]);
    expect(args).toEqual(expect.arrayContaining(["--unshare-all", "--die-with-parent", "--new-session"]));
    expect(args.slice(args.indexOf("--"))).toEqual(["--", "bash", "reproduce.sh"]);
    // The root is made read-only after every mount.
    expect(args.indexOf("--remount-ro")).toBeGreaterThan(args.lastIndexOf("--bind"));
  });

  it("shares the network only when the paper allows it", () => {
    expect(bwrapArgs({ ...base, gpuIndices: [], network: false })).not.toContain("--share-net");
    expect(bwrapArgs({ ...base, gpuIndices: [], network: true })).toContain("--share-net");
  });

  it("exposes only the assigned GPUs' device nodes and the shared control devices", () => {
    expect(after(bwrapArgs({ ...base, gpuIndices: [], network: false }), "--dev-bind", 2)).toEqual([]);
    const devices = after(bwrapArgs({ ...base, gpuIndices: [0, 2], network: false }), "--dev-bind", 2).map(([src]) => src);
    expect(devices.sort()).toEqual(["/dev/nvidia-caps", "/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidia2", "/dev/nvidiactl"]);
  });

  it("never puts an environment value on the command line", () => {
    expect(bwrapArgs({ ...base, gpuIndices: [1], network: false })).not.toContain("--setenv");
  });
});

describe("jobEnvironment", () => {
  it("holds the allow-list and the secrets only, with the runner's GPU split winning", () => {
    const env = jobEnvironment({ home: "/tmp/home", tmp: "/tmp", gpuIndices: [1, 3], secrets: { HF_TOKEN: "hf_x", CUDA_VISIBLE_DEVICES: "0,1,2,3" } });
    expect(env).toEqual({ PATH: expect.stringContaining("/usr/bin"), HOME: "/tmp/home", TMPDIR: "/tmp", LANG: "C.UTF-8", HF_TOKEN: "hf_x", CUDA_VISIBLE_DEVICES: "1,3" });
    expect(jobEnvironment({ home: "/h", tmp: "/t", gpuIndices: [], secrets: {} }).CUDA_VISIBLE_DEVICES).toBe("");
  });
});

describe("dockerRunArgs", () => {
  const docker = { name: "job-1", image: "pb-reproducer:latest", dir: "/w/sub", scratchDir: "/w/scratch", command: ["bash", "reproduce.sh"], envNames: ["LANG", "HF_TOKEN"] };

  it("runs the image on the job's copy with no network and the GPUs named in docker's list syntax", () => {
    const args = dockerRunArgs({ ...docker, gpuIndices: [0, 1], network: false });
    expect(args.slice(0, 5)).toEqual(["run", "--rm", "--init", "--name", "rubric-job-job-1"]);
    expect(after(args, "--gpus", 1)).toEqual([['"device=0,1"']]);
    expect(after(args, "--network", 1)).toEqual([["none"]]);
    expect(after(args, "-v", 1)).toEqual([["/w/sub:/submission"], ["/w/scratch:/tmp"]]);
    expect(after(args, "-w", 1)).toEqual([["/submission"]]);
    expect(args.slice(-3)).toEqual(["pb-reproducer:latest", "bash", "reproduce.sh"]);
  });

  it("passes variables by name only, leaves GPUs out when none are assigned, and allows the network when asked", () => {
    const args = dockerRunArgs({ ...docker, gpuIndices: [], network: true });
    expect(after(args, "-e", 1)).toEqual([["LANG"], ["HF_TOKEN"]]);
    expect(args.some((a) => a.includes("="))).toBe(false);
    expect(args).not.toContain("--gpus");
    expect(args).not.toContain("--network");
  });
});
