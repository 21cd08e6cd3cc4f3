import { describe, expect, it } from "vitest";
import { dockerRunArgs } from "./docker";
import { JOB_PATH, jobEnvironment } from "./job-environment";
import { BWRAP_FDS, bwrapArgs, bwrapCommandLine, type HostLayout } from "./sandbox";
import { prohibitRoutes } from "./sandbox-network";
import { REPRODUCE_COMMAND } from "../reproduce";

const layout: HostLayout = {
  systemDirs: ["/usr", "/opt"],
  systemLinks: [{ path: "/bin", target: "usr/bin" }],
  etcEntries: ["/etc/passwd", "/etc/ssl"],
  nvidiaDevices: ["nvidia-caps", "nvidia-uvm", "nvidia0", "nvidia1", "nvidia2", "nvidiactl"],
};
const base = {
  dir: "/work/jobs/j1/submission",
  scratchDir: "/work/jobs/j1/scratch",
  command: ["bash", "reproduce.sh"],
  layout,
};

/** The arguments following each occurrence of `flag`. */
function after(args: string[], flag: string, n: number): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + n)] : []));
}

describe("bwrapArgs", () => {
  const env = { PATH: "/usr/bin:/bin", HF_TOKEN: "hf_x" };
  const opts = { ...base, gpuIndices: [] as number[], env };

  it("binds the system read-only, the job's copy writable at /submission and its scratch as /tmp, and nothing else", () => {
    const args = bwrapArgs(opts);
    expect(after(args, "--ro-bind", 2)).toEqual([
      ["/usr", "/usr"],
      ["/opt", "/opt"],
      ["/etc/passwd", "/etc/passwd"],
      ["/etc/ssl", "/etc/ssl"],
    ]);
    expect(after(args, "--bind", 2)).toEqual([
      ["/work/jobs/j1/scratch", "/tmp"],
      ["/work/jobs/j1/submission", "/submission"],
    ]);
    expect(after(args, "--symlink", 2)).toEqual([["usr/bin", "/bin"]]);
    expect(after(args, "--chdir", 1)).toEqual([["/submission"]]);
    expect(args).toEqual(expect.arrayContaining(["--unshare-all", "--die-with-parent", "--new-session"]));
    // The root is made read-only after every mount.
    expect(args.at(-2)).toBe("--remount-ro");
    expect(args.indexOf("--remount-ro")).toBeGreaterThan(args.lastIndexOf("--bind"));
  });

  it("drops every capability and refuses nested user namespaces", () => {
    const args = bwrapArgs(opts);
    expect(after(args, "--cap-drop", 1)).toEqual([["ALL"]]);
    expect(args).toContain("--disable-userns");
    // --disable-userns needs a user namespace of bwrap's own (as root, --unshare-all only tries one).
    expect(args).toContain("--unshare-user");
    expect(args).not.toContain("--cap-add");
    // uid 0 of its own namespace only (bwrap itself runs as nobody on the host when the runner is root).
    expect(after(args, "--uid", 1)).toEqual([["0"]]);
  });

  it("never shares the host's network: with network allowed the job's own namespace is attached while bwrap waits", () => {
    const args = bwrapArgs(opts);
    expect(args).not.toContain("--share-net");
    expect(after(args, "--info-fd", 1)).toEqual([[String(BWRAP_FDS.info)]]);
    expect(after(args, "--block-fd", 1)).toEqual([[String(BWRAP_FDS.block)]]);
  });

  it("exposes only the assigned GPUs' device nodes and the shared control devices", () => {
    expect(after(bwrapArgs(opts), "--dev-bind", 2)).toEqual([]);
    const devices = after(bwrapArgs({ ...opts, gpuIndices: [0, 2] }), "--dev-bind", 2).map(([src]) => src);
    expect(devices.sort()).toEqual([
      "/dev/nvidia-caps",
      "/dev/nvidia-uvm",
      "/dev/nvidia0",
      "/dev/nvidia2",
      "/dev/nvidiactl",
    ]);
  });

  it("gives the job exactly its environment, starting from an empty one", () => {
    const args = bwrapArgs(opts);
    expect(args.indexOf("--clearenv")).toBeLessThan(args.indexOf("--setenv"));
    expect(after(args, "--setenv", 2)).toEqual([
      ["PATH", "/usr/bin:/bin"],
      ["HF_TOKEN", "hf_x"],
    ]);
  });

  it("keeps host paths and values off bwrap's own command line: only the job's command is there", () => {
    expect(bwrapCommandLine(["bash", "reproduce.sh"])).toEqual([
      "--args",
      String(BWRAP_FDS.args),
      "--",
      "bash",
      "reproduce.sh",
    ]);
  });
});

describe("prohibitRoutes", () => {
  it("refuses link-local, private and shared ranges and the host's own addresses in the job's namespace", () => {
    const routes = prohibitRoutes(["192.0.2.2/32"]).map((r) => r.join(" "));
    for (const range of [
      "169.254.0.0/16",
      "10.0.0.0/8",
      "172.16.0.0/12",
      "192.168.0.0/16",
      "100.64.0.0/10",
      "192.0.2.2/32",
    ])
      expect(routes).toContain(`route add prohibit ${range}`);
  });
});

describe("jobEnvironment", () => {
  it("holds the allow-list and the secrets only, with the runner's GPU split winning", () => {
    const env = jobEnvironment({
      home: "/tmp/home",
      tmp: "/tmp",
      gpuIndices: [1, 3],
      secrets: { HF_TOKEN: "hf_x", CUDA_VISIBLE_DEVICES: "0,1,2,3" },
    });
    expect(env).toEqual({
      PATH: expect.stringContaining("/usr/bin"),
      HOME: "/tmp/home",
      TMPDIR: "/tmp",
      LANG: "C.UTF-8",
      HF_TOKEN: "hf_x",
      CUDA_VISIBLE_DEVICES: "1,3",
    });
    expect(jobEnvironment({ home: "/h", tmp: "/t", gpuIndices: [], secrets: {} }).CUDA_VISIBLE_DEVICES).toBe("");
  });

  it("never lets a secret replace PATH, HOME or TMPDIR", () => {
    const env = jobEnvironment({
      home: "/tmp/home",
      tmp: "/tmp",
      gpuIndices: [],
      secrets: { PATH: "/submission/bin", HOME: "/submission", TMPDIR: "/submission" },
    });
    expect(env).toMatchObject({ PATH: JOB_PATH, HOME: "/tmp/home", TMPDIR: "/tmp" });
  });
});

describe("dockerRunArgs", () => {
  const docker = {
    name: "job-1",
    image: "pb-reproducer:latest",
    dir: "/w/sub",
    scratchDir: "/w/scratch",
    command: ["bash", "reproduce.sh"],
    envNames: ["LANG", "HF_TOKEN"],
    limits: { memoryMiB: 2048, processes: 512 },
  };

  it("runs the image on the job's copy with no network and the GPUs named in docker's list syntax", () => {
    const args = dockerRunArgs({ ...docker, gpuIndices: [0, 1], network: false });
    expect(args.slice(0, 5)).toEqual(["run", "--rm", "--init", "--name", "rubric-job-job-1"]);
    expect(after(args, "--gpus", 1)).toEqual([['"device=0,1"']]);
    expect(after(args, "--network", 1)).toEqual([["none"]]);
    expect(after(args, "-v", 1)).toEqual([["/w/sub:/submission"], ["/w/scratch:/tmp"]]);
    expect(after(args, "-w", 1)).toEqual([["/submission"]]);
    expect(after(args, "--memory", 1)).toEqual([["2048m"]]);
    expect(after(args, "--memory-swap", 1)).toEqual([["2048m"]]);
    expect(after(args, "--pids-limit", 1)).toEqual([["512"]]);
    expect(args.slice(-3)).toEqual(["pb-reproducer:latest", "bash", "reproduce.sh"]);
  });

  it("runs reproduce.sh in the container after `rm -rf venv .venv`, in the submission's folder, as PaperBench does", () => {
    const args = dockerRunArgs({ ...docker, command: [...REPRODUCE_COMMAND], gpuIndices: [], network: false });
    expect(args.slice(-4)).toEqual([
      "pb-reproducer:latest",
      "bash",
      "-c",
      "exec 2>&1; rm -rf venv .venv && exec bash reproduce.sh",
    ]);
    expect(after(args, "-w", 1)).toEqual([["/submission"]]);
  });

  it("passes variables by name only, leaves GPUs out when none are assigned, and allows the network when asked", () => {
    const args = dockerRunArgs({ ...docker, gpuIndices: [], network: true });
    expect(after(args, "-e", 1)).toEqual([["LANG"], ["HF_TOKEN"]]);
    expect(args.some((a) => a.includes("="))).toBe(false);
    expect(args).not.toContain("--gpus");
    expect(args).not.toContain("--network");
  });
});
