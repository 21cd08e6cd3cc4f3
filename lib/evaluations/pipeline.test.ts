import { describe, expect, it } from "vitest";
import { estimateEtaS, nextPipelineStep, policyStateOf, type PipelineFacts } from "./pipeline";
import { DEFAULT_POLICIES } from "./schemas";

const base: PipelineFacts = { variant: "full", stage: "uploaded", attempts: 1, policies: DEFAULT_POLICIES, job: null, judgeRun: null, failure: null };

describe("the pipeline's rule", () => {
  it("reproduces a full run first and judges a Code-Dev one at once", () => {
    expect(nextPipelineStep(base)).toEqual({ kind: "reproduce" });
    expect(nextPipelineStep({ ...base, variant: "code-dev" })).toEqual({ kind: "judge" });
  });

  it("waits on a queued or running job or run, and judges after a succeeded reproduction", () => {
    const job = (status: "queued" | "running" | "succeeded") => ({ status, exitCode: null, reason: null });
    expect(nextPipelineStep({ ...base, stage: "reproducing", job: job("queued") })).toEqual({ kind: "wait" });
    expect(nextPipelineStep({ ...base, stage: "reproducing", job: job("running") })).toEqual({ kind: "wait" });
    expect(nextPipelineStep({ ...base, stage: "reproducing", job: job("succeeded") })).toEqual({ kind: "judge" });
    expect(nextPipelineStep({ ...base, stage: "judging", judgeRun: { status: "running", reason: null, leavesInvalid: 0 } })).toEqual({ kind: "wait" });
    expect(nextPipelineStep({ ...base, stage: "judging", judgeRun: { status: "succeeded", reason: null, leavesInvalid: 0 } })).toEqual({ kind: "graded", failure: null });
  });

  it("retries while attempts ≤ retry (3 attempts for {retry: 2}), then fails; zero and exclude fail at once", () => {
    const failed = { ...base, stage: "reproducing" as const, job: { status: "failed" as const, exitCode: 1, reason: null } };
    const retry2 = { ...DEFAULT_POLICIES, reproduction_failed: { retry: 2 } };
    expect(nextPipelineStep({ ...failed, policies: retry2, attempts: 1 })).toMatchObject({ kind: "retry", from: "reproduce" });
    expect(nextPipelineStep({ ...failed, policies: retry2, attempts: 2 })).toMatchObject({ kind: "retry" });
    expect(nextPipelineStep({ ...failed, policies: retry2, attempts: 3 })).toEqual({ kind: "failed", failure: { kind: "reproduction_failed", reason: "reproduction failed: exit code 1" } });
    expect(nextPipelineStep(failed)).toMatchObject({ kind: "failed" });
    expect(nextPipelineStep({ ...base, stage: "reproducing", job: { status: "timed_out", exitCode: null, reason: "past 60 s" } })).toMatchObject({
      kind: "failed",
      failure: { kind: "reproduction_timed_out", reason: "reproduction timed out: past 60 s" },
    });
  });

  it("keeps a grading with invalid leaves once no retry is left, and takes no step on a final cell", () => {
    const invalid = { ...base, stage: "judging" as const, judgeRun: { status: "succeeded" as const, reason: null, leavesInvalid: 1 } };
    expect(nextPipelineStep(invalid)).toEqual({ kind: "graded", failure: { kind: "judge_invalid_leaves", reason: "the judge left 1 invalid leaf" } });
    expect(nextPipelineStep({ ...invalid, policies: { ...DEFAULT_POLICIES, judge_invalid_leaves: { retry: 1 } } })).toMatchObject({ kind: "retry", from: "judge" });
    expect(nextPipelineStep({ ...base, stage: "done" })).toEqual({ kind: "wait" });
    expect(nextPipelineStep({ ...base, stage: "failed" })).toEqual({ kind: "wait" });
    expect(policyStateOf("failed", { kind: "reproduction_timed_out", reason: "" })).toBe("timed_out");
    expect(policyStateOf("done", null)).toBe("succeeded");
    expect(policyStateOf("judging", null)).toBe("pending");
  });

  it("estimates what is left from the finished cells' mean over the parallelism seen", () => {
    expect(estimateEtaS([], 5, 2)).toBeNull();
    expect(estimateEtaS([10, 30], 0, 2)).toBeNull();
    expect(estimateEtaS([10, 30], 4, 2)).toBe(40);
    expect(estimateEtaS([10, 30], 4, 0)).toBe(80);
  });
});
