import { describe, expect, it } from "vitest";
import { describeReproductionEnd, isJudgeableReproduction, latestJudgeableReproduction } from "./judge-source";

describe("which reproduction is judged", () => {
  const job = (
    status: "succeeded" | "failed" | "timed_out" | "cancelled" | "running",
    outputs: boolean,
    id: string = status,
  ) => ({ id, kind: "reproduce", status, outputsSha256: outputs ? "sha" : null });

  it("every one that ran with its outputs stored, however it ended; not a cancelled one nor one without outputs", () => {
    expect(isJudgeableReproduction(job("succeeded", true))).toBe(true);
    expect(isJudgeableReproduction(job("failed", true))).toBe(true);
    expect(isJudgeableReproduction(job("timed_out", true))).toBe(true);
    expect(isJudgeableReproduction(job("failed", false))).toBe(false);
    expect(isJudgeableReproduction(job("cancelled", true))).toBe(false);
    expect(isJudgeableReproduction(job("running", true))).toBe(false);
    expect(isJudgeableReproduction({ ...job("succeeded", true), kind: "judge" })).toBe(false);
    expect(
      latestJudgeableReproduction([job("cancelled", true, "a"), job("failed", true, "b"), job("succeeded", true, "c")])
        ?.id,
    ).toBe("b");
    expect(latestJudgeableReproduction([job("failed", false)])).toBeNull();
  });

  it("says how it ended for reviewers", () => {
    expect(
      describeReproductionEnd({
        status: "failed",
        exitCode: 1,
        durationS: 180,
        timeoutS: 7200,
        reason: "reproduce.sh exited with status 1",
      }),
    ).toBe("reproduce.sh exited 1 after 3 min");
    expect(
      describeReproductionEnd({ status: "timed_out", exitCode: null, durationS: 7201, timeoutS: 7200, reason: null }),
    ).toBe("timed out after 2 h");
    expect(
      describeReproductionEnd({ status: "succeeded", exitCode: 0, durationS: 40, timeoutS: 7200, reason: null }),
    ).toBe("reproduce.sh exited 0 after 40 s");
    expect(
      describeReproductionEnd({
        status: "failed",
        exitCode: null,
        durationS: 1,
        timeoutS: 60,
        reason: "reproduce.sh not found at the submission's root",
      }),
    ).toBe("reproduce.sh not found at the submission's root");
    expect(
      describeReproductionEnd({ status: "running", exitCode: null, durationS: null, timeoutS: 60, reason: null }),
    ).toBeNull();
  });
});
