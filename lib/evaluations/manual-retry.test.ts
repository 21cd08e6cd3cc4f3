import { describe, expect, it } from "vitest";
import { manualRetryStep } from "./pipeline";

describe("a retry by hand (the matrix's Retry and /jobs' Retry of a cell's job share it)", () => {
  const base = {
    variant: "full" as const,
    stage: "failed" as const,
    failureKind: "reproduction_failed" as const,
    job: { judgeable: false },
  };

  it("retries a failed cell, or a done one with a failure; leaves a running or counted cell", () => {
    expect(manualRetryStep(base)).toBe("reproduce");
    expect(manualRetryStep({ ...base, stage: "done", failureKind: "judge_invalid_leaves" })).toBe("reproduce");
    expect(manualRetryStep({ ...base, stage: "done", failureKind: null })).toBeNull();
    expect(manualRetryStep({ ...base, stage: "reproducing" })).toBeNull();
    expect(manualRetryStep({ ...base, stage: "judging", from: "reproduce" })).toBeNull();
  });

  it("judges again when the judge failed and the reproduction gave something to judge; the job's own Retry reproduces", () => {
    const invalid = {
      ...base,
      stage: "done" as const,
      failureKind: "judge_invalid_leaves" as const,
      job: { judgeable: true },
    };
    expect(manualRetryStep(invalid)).toBe("judge");
    expect(manualRetryStep({ ...invalid, variant: "code-dev", job: null })).toBe("judge");
    expect(manualRetryStep({ ...invalid, from: "reproduce" })).toBe("reproduce");
  });
});
