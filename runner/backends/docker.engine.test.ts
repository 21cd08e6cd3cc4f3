import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_DOCKER_IMAGE, dockerAnswers, dockerBackend } from "./docker";

/**
 * Needs a Docker engine (`docker info` answering) and the reproducer image (RUNNER_DOCKER_IMAGE,
 * else pb-reproducer:latest). The development and CI machines of this project have no engine: the
 * README says so; on a GPU host with Docker this runs.
 */
describe.runIf(dockerAnswers())("docker backend (needs a Docker engine)", () => {
  it("runs the job in the image with its copy at /submission, no network, and only the secrets given", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docker-job-"));
    const backend = dockerBackend(process.env.RUNNER_DOCKER_IMAGE ?? DEFAULT_DOCKER_IMAGE);
    const proc = backend.spawnJob({
      dir,
      scratchDir: path.join(dir, "..", `${path.basename(dir)}-scratch`),
      command: [
        "bash",
        "-c",
        'pwd; echo "s=$HF_TOKEN t=${RUNNER_TOKEN:-none}"; echo out > /submission/made; (exec 3<>/dev/tcp/1.1.1.1/80) 2>/dev/null && echo net || echo no-net; exit 4',
      ],
      secrets: { HF_TOKEN: "hf_docker" },
      limits: { memoryMiB: 1024, processes: 256 },
      gpuIndices: [],
      network: false,
      name: `test-${Date.now()}`,
    });
    let out = "";
    proc.stdout.on("data", (d) => (out += d));
    const exit = await proc.wait();
    expect(exit.exitCode).toBe(4);
    expect(out).toBe("/submission\ns=hf_docker t=none\nno-net\n");
    expect(fs.readFileSync(path.join(dir, "made"), "utf8")).toBe("out\n");
  });
});
