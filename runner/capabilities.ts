import { execFile } from "node:child_process";
import os from "node:os";
import type { Gpu, RunnerBackend, RunnerCapabilities } from "@/lib/runner/protocol";

/** nvidia-smi's CSV (`index, name, memory.total` in MiB, no header, no units) as GPUs. */
export function parseNvidiaSmi(csv: string): Gpu[] {
  const gpus: Gpu[] = [];
  for (const line of csv.split("\n")) {
    if (line.trim() === "") continue;
    const fields = line.split(",").map((f) => f.trim());
    const index = Number(fields[0]);
    const memoryMiB = Number(fields[fields.length - 1]);
    // A model name may itself hold a comma: it is everything between the first and last field.
    const model = fields.slice(1, -1).join(", ");
    if (fields.length < 3 || !Number.isInteger(index) || index < 0 || !Number.isFinite(memoryMiB)) {
      throw new Error(`nvidia-smi printed a line this runner cannot read: ${JSON.stringify(line)}`);
    }
    gpus.push({ index, model, memoryMiB: Math.round(memoryMiB) });
  }
  return gpus;
}

/** The machine's GPUs from nvidia-smi; none when nvidia-smi is not installed. */
export function detectGpus(): Promise<Gpu[]> {
  return new Promise((resolve, reject) => {
    execFile(
      "nvidia-smi",
      ["--query-gpu=index,name,memory.total", "--format=csv,noheader,nounits"],
      { timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException).code === "ENOENT") return resolve([]);
        if (err) return reject(new Error(`nvidia-smi failed: ${stderr.trim() || err.message}`));
        try {
          resolve(parseNvidiaSmi(stdout));
        } catch (parseErr) {
          reject(parseErr);
        }
      },
    );
  });
}

export function gpuLabel(gpu: Gpu): string {
  return `${gpu.index}: ${gpu.model}`;
}

export function machineCapabilities(
  gpus: Gpu[],
  backend: RunnerBackend,
  maxJobs: number,
  version?: string,
): RunnerCapabilities {
  return {
    gpus,
    cpus: Math.max(1, os.availableParallelism()),
    memoryBytes: os.totalmem(),
    backend,
    maxJobs,
    hostname: os.hostname().slice(0, 200),
    ...(version ? { version } : {}),
  };
}
