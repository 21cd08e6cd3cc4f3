import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { detectGpus, gpuLabel, parseNvidiaSmi } from "./capabilities";

describe("parseNvidiaSmi", () => {
  it("reads index, model and memory, a model name with a comma included", () => {
    expect(parseNvidiaSmi("0, NVIDIA H100 80GB HBM3, 81559\n1, Tesla V100-SXM2, 32GB, 32768\n\n")).toEqual([
      { index: 0, model: "NVIDIA H100 80GB HBM3", memoryMiB: 81559 },
      { index: 1, model: "Tesla V100-SXM2, 32GB", memoryMiB: 32768 },
    ]);
    expect(gpuLabel({ index: 0, model: "NVIDIA H100 80GB HBM3", memoryMiB: 1 })).toBe("0: NVIDIA H100 80GB HBM3");
  });

  it("refuses a line it cannot read rather than guessing", () => {
    expect(() => parseNvidiaSmi("[N/A], NVIDIA, 1\n")).toThrow(/cannot read/);
  });
});

describe("detectGpus", () => {
  const originalPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = originalPath;
  });

  it("runs the nvidia-smi first on PATH with the query the runner needs", async () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "fake-nvidia-smi-"));
    fs.writeFileSync(
      path.join(bin, "nvidia-smi"),
      `#!/bin/bash\nif [ "$*" != "--query-gpu=index,name,memory.total --format=csv,noheader,nounits" ]; then echo "bad args: $*" >&2; exit 9; fi\necho "0, NVIDIA H100 80GB HBM3, 81559"\necho "1, NVIDIA H100 80GB HBM3, 81559"\n`,
      { mode: 0o755 },
    );
    process.env.PATH = `${bin}:${originalPath}`;
    expect(await detectGpus()).toEqual([
      { index: 0, model: "NVIDIA H100 80GB HBM3", memoryMiB: 81559 },
      { index: 1, model: "NVIDIA H100 80GB HBM3", memoryMiB: 81559 },
    ]);
  });

  it("answers no GPUs when nvidia-smi is not installed, and an error when it fails", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "no-nvidia-smi-"));
    process.env.PATH = empty;
    expect(await detectGpus()).toEqual([]);
    fs.writeFileSync(path.join(empty, "nvidia-smi"), "#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n", {
      mode: 0o755,
    });
    await expect(detectGpus()).rejects.toThrow(/NVIDIA-SMI has failed/);
  });
});
