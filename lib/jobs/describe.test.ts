import { describe, expect, it } from "vitest";
import { formatBytes } from "@/lib/bytes";
import { describeGpus, formatAgo, jobElapsedS } from "./describe";

describe("describeGpus", () => {
  it("counts GPUs per model in the order they first appear", () => {
    const h100 = { model: "NVIDIA H100 80GB HBM3" };
    expect(describeGpus([h100, h100])).toBe("2× NVIDIA H100 80GB HBM3");
    expect(describeGpus([{ model: "A100" }, { model: "T4" }, { model: "A100" }])).toBe("2× A100 + 1× T4");
    expect(describeGpus([])).toBe("none");
  });
});

describe("jobElapsedS", () => {
  const startedAt = "2025-01-01T00:00:00.000Z";
  const t0 = Date.parse(startedAt);
  it("ticks to now while running, is unknown while queued", () => {
    expect(jobElapsedS({ status: "running", startedAt, finishedAt: null }, t0 + 12_500)).toBe(12.5);
    expect(jobElapsedS({ status: "queued", startedAt: null, finishedAt: null }, t0)).toBeNull();
    // A requeued job keeps its last start but does not run now.
    expect(jobElapsedS({ status: "queued", startedAt, finishedAt: null }, t0 + 5_000)).toBeNull();
  });
  it("stops at the measured duration, else start to finish, once ended", () => {
    expect(
      jobElapsedS(
        { status: "succeeded", startedAt, durationS: 3.2, finishedAt: "2025-01-01T00:00:09.000Z" },
        t0 + 99_000,
      ),
    ).toBe(3.2);
    expect(
      jobElapsedS(
        { status: "cancelled", startedAt, durationS: null, finishedAt: "2025-01-01T00:00:09.000Z" },
        t0 + 99_000,
      ),
    ).toBe(9);
  });
});

describe("formatBytes", () => {
  it("uses binary units up to GiB", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(10 * 1024 ** 2)).toBe("10.0 MiB");
    expect(formatBytes(2 * 1024 ** 3)).toBe("2.0 GiB");
  });
});

describe("formatAgo", () => {
  it("names the largest whole unit", () => {
    const now = Date.parse("2025-01-02T00:00:00Z");
    expect(formatAgo("2025-01-01T23:59:48Z", now)).toBe("12 s ago");
    expect(formatAgo("2025-01-01T23:54:30Z", now)).toBe("5 min ago");
    expect(formatAgo("2025-01-01T20:00:00Z", now)).toBe("4 h ago");
    expect(formatAgo("2024-12-29T00:00:00Z", now)).toBe("4 d ago");
    // A clock a little ahead of the server's is not "in the future".
    expect(formatAgo("2025-01-02T00:00:03Z", now)).toBe("0 s ago");
  });
});
