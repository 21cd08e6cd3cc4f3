import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import type { JobBackend, JobSpawnOptions, SpawnLimits } from "./job-backend";
import { trackedProcess } from "./tracked-process";

/** A PaperBench-like reproducer image (Ubuntu 24.04, Python 3.11 and 3.12): `--docker-image` / RUNNER_DOCKER_IMAGE. */
export const DEFAULT_DOCKER_IMAGE = "pb-reproducer:latest";

export function containerName(spawnName: string): string {
  return `rubric-job-${spawnName.replace(/[^a-zA-Z0-9_.-]/g, "-")}`;
}

/**
 * `docker run` of one job (pure: the tests read it). The container gets no environment of the
 * runner's: environment variables are passed by name
 * only (`-e NAME`), their values coming from the docker client's own environment, so a secret is
 * never on a command line. Inside the container the assigned GPUs are the only ones and are
 * numbered from 0, so CUDA_VISIBLE_DEVICES is left to the NVIDIA runtime.
 */
export function dockerRunArgs(opts: {
  name: string;
  image: string;
  dir: string;
  scratchDir: string;
  command: string[];
  gpuIndices: number[];
  network: boolean;
  envNames: string[];
  limits: SpawnLimits;
}): string[] {
  const args = ["run", "--rm", "--init", "--name", containerName(opts.name)];
  // Memory and swap together at the limit: the container cannot swap its way past it.
  args.push(
    "--memory",
    `${opts.limits.memoryMiB}m`,
    "--memory-swap",
    `${opts.limits.memoryMiB}m`,
    "--pids-limit",
    String(opts.limits.processes),
  );
  // The quotes are docker's own syntax for a list of devices (the value is CSV).
  if (opts.gpuIndices.length > 0) args.push("--gpus", `"device=${opts.gpuIndices.join(",")}"`);
  if (!opts.network) args.push("--network", "none");
  args.push("-v", `${opts.dir}:/submission`, "-v", `${opts.scratchDir}:/tmp`, "-w", "/submission");
  for (const name of opts.envNames) args.push("-e", name);
  args.push(opts.image, ...opts.command);
  return args;
}

export function dockerAnswers(): boolean {
  const result = spawnSync("docker", ["info"], { stdio: "ignore", timeout: 10_000 });
  return result.status === 0;
}

/** `docker run --gpus …` of a reproducer image, for GPU hosts with Docker and the NVIDIA container toolkit. */
export function dockerBackend(image: string = DEFAULT_DOCKER_IMAGE): JobBackend {
  return {
    name: "docker",
    notices: () => [],
    spawnJob(opts: JobSpawnOptions) {
      fs.mkdirSync(opts.scratchDir, { recursive: true });
      // The image's own PATH and HOME stand (its Pythons live there); only these reach the container.
      const containerEnv = { LANG: "C.UTF-8", TMPDIR: "/tmp", ...opts.secrets };
      const name = containerName(opts.name);
      const child = spawn("docker", dockerRunArgs({ ...opts, image, envNames: Object.keys(containerEnv) }), {
        env: { ...process.env, ...containerEnv },
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let gone = false;
      child.once("exit", () => {
        gone = true;
      });
      return trackedProcess(child, {
        // The container's processes belong to the Docker daemon, not to us: the client stands for them.
        members: () => [],
        targets: () => {
          if (!gone) spawnSync("docker", ["kill", "--signal", "SIGTERM", name], { stdio: "ignore", timeout: 10_000 });
          return [];
        },
        finalKill: () => {
          spawnSync("docker", ["kill", name], { stdio: "ignore", timeout: 10_000 });
          spawnSync("docker", ["rm", "-f", name], { stdio: "ignore", timeout: 10_000 });
        },
      });
    },
  };
}
