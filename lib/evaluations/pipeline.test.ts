import { describe, expect, it } from "vitest";
import { estimateEtaS, nextPipelineStep, policyStateOf, type PipelineFacts } from "./pipeline";
import { DEFAULT_POLICIES } from "./default-policies";

const base: PipelineFacts = {
  variant: "full",
  stage: "uploaded",
  attempts: 1,
  policies: DEFAULT_POLICIES,
  job: null,
  judgeRun: null,
  failure: null,
};

describe("the pipeline's rule", () => {
  it("reproduces a full run first and judges a Code-Dev one at once", () => {
    expect(nextPipelineStep(base)).toEqual({ kind: "reproduce" });
    expect(nextPipelineStep({ ...base, variant: "code-dev" })).toEqual({ kind: "judge" });
  });

  it("waits on a queued or running job or run, and judges after a succeeded reproduction", () => {
    const job = (status: "queued" | "running" | "succeeded") => ({
      status,
      exitCode: null,
      reason: null,
      judgeable: status === "succeeded",
    });
    expect(nextPipelineStep({ ...base, stage: "reproducing", job: job("queued") })).toEqual({ kind: "wait" });
    expect(nextPipelineStep({ ...base, stage: "reproducing", job: job("running") })).toEqual({ kind: "wait" });
    expect(nextPipelineStep({ ...base, stage: "reproducing", job: job("succeeded") })).toEqual({ kind: "judge" });
    expect(
      nextPipelineStep({ ...base, stage: "judging", judgeRun: { status: "running", reason: null, leavesInvalid: 0 } }),
    ).toEqual({ kind: "wait" });
    expect(
      nextPipelineStep({
        ...base,
        stage: "judging",
        judgeRun: { status: "succeeded", reason: null, leavesInvalid: 0 },
      }),
    ).toEqual({ kind: "graded", failure: null });
  });

  it("judges every reproduction that ran, as PaperBench does: a non-zero exit, a timeout, a missing reproduce.sh", () => {
    const ended = (status: "failed" | "timed_out", exitCode: number | null) => ({
      ...base,
      stage: "reproducing" as const,
      job: { status, exitCode, reason: null, judgeable: true },
    });
    expect(nextPipelineStep(ended("failed", 1))).toEqual({ kind: "judge" });
    expect(nextPipelineStep(ended("timed_out", null))).toEqual({ kind: "judge" });
    expect(nextPipelineStep(ended("failed", null))).toEqual({ kind: "judge" });
    // Whatever the policy: it decides only what has nothing to judge.
    expect(
      nextPipelineStep({ ...ended("failed", 1), policies: { ...DEFAULT_POLICIES, reproduction_failed: "exclude" } }),
    ).toEqual({ kind: "judge" });
    const cancelled = {
      ...base,
      stage: "reproducing" as const,
      job: { status: "cancelled" as const, exitCode: null, reason: "cancelled by staff", judgeable: false },
    };
    expect(nextPipelineStep(cancelled)).toEqual({
      kind: "failed",
      failure: { kind: "reproduction_failed", reason: "reproduction cancelled, nothing to judge: cancelled by staff" },
    });
  });

  it("retries what left nothing to judge while attempts ≤ retry (3 attempts for {retry: 2}), then fails; zero and exclude fail at once", () => {
    const failed = {
      ...base,
      stage: "reproducing" as const,
      job: {
        status: "failed" as const,
        exitCode: null,
        reason: "the sandbox's network could not be set up",
        judgeable: false,
      },
    };
    const retry2 = { ...DEFAULT_POLICIES, reproduction_failed: { retry: 2 } };
    expect(nextPipelineStep({ ...failed, policies: retry2, attempts: 1 })).toMatchObject({
      kind: "retry",
      from: "reproduce",
    });
    expect(nextPipelineStep({ ...failed, policies: retry2, attempts: 2 })).toMatchObject({ kind: "retry" });
    expect(nextPipelineStep({ ...failed, policies: retry2, attempts: 3 })).toEqual({
      kind: "failed",
      failure: {
        kind: "reproduction_failed",
        reason: "reproduction failed, nothing to judge: the sandbox's network could not be set up",
      },
    });
    expect(nextPipelineStep(failed)).toMatchObject({ kind: "failed" });
    expect(
      nextPipelineStep({
        ...base,
        stage: "reproducing",
        job: { status: "timed_out", exitCode: null, reason: "past 60 s", judgeable: false },
      }),
    ).toMatchObject({
      kind: "failed",
      failure: { kind: "reproduction_timed_out", reason: "reproduction timed out, nothing to judge: past 60 s" },
    });
  });

  it("keeps a grading with invalid leaves once no retry is left, and takes no step on a final cell", () => {
    const invalid = {
      ...base,
      stage: "judging" as const,
      judgeRun: { status: "succeeded" as const, reason: null, leavesInvalid: 1 },
    };
    expect(nextPipelineStep(invalid)).toEqual({
      kind: "graded",
      failure: { kind: "judge_invalid_leaves", reason: "the judge left 1 invalid leaf" },
    });
    expect(
      nextPipelineStep({ ...invalid, policies: { ...DEFAULT_POLICIES, judge_invalid_leaves: { retry: 1 } } }),
    ).toMatchObject({ kind: "retry", from: "judge" });
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
