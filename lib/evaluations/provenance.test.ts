import { describe, expect, it } from "vitest";
import { DEFAULT_POLICIES } from "./default-policies";
import { chooseDefaultJudge, type JudgeChoiceCandidate } from "@/lib/judge/default-judge-choice";
import { PLACEHOLDER_LABEL, scoringMethodOf } from "./scoring-method";
import {
  isPaperbenchMethod,
  isPlaceholderJudge,
  promptSourceLabel,
  provenanceSummary,
  type GradingProvenance,
} from "./provenance";

const llmPb: GradingProvenance = {
  origin: "judge_run",
  judgeKind: "llm",
  judgeModel: "o3-mini",
  mode: "paperbench",
  config: null,
  promptSource: "PaperBench 51052cede8cc",
  evaluationId: "e1",
  policies: DEFAULT_POLICIES,
};

describe("grading provenance", () => {
  it("knows the placeholder judges", () => {
    expect(isPlaceholderJudge("dummy")).toBe(true);
    expect(isPlaceholderJudge("random")).toBe(true);
    expect(isPlaceholderJudge("llm")).toBe(false);
    expect(isPlaceholderJudge("simple")).toBe(false);
    expect(isPlaceholderJudge(null)).toBe(false);
  });

  it("is PaperBench method only for a model judge in paperbench mode under default policies", () => {
    expect(isPaperbenchMethod(llmPb, DEFAULT_POLICIES)).toBe(true);
    expect(isPaperbenchMethod({ ...llmPb, mode: "efficient" }, DEFAULT_POLICIES)).toBe(false);
    expect(isPaperbenchMethod({ ...llmPb, judgeKind: "dummy" }, DEFAULT_POLICIES)).toBe(false);
    expect(isPaperbenchMethod(llmPb, { ...DEFAULT_POLICIES, reproduction_timed_out: "exclude" })).toBe(false);
    expect(isPaperbenchMethod(llmPb, null)).toBe(false);
  });

  it("names the prompts' source", () => {
    expect(promptSourceLabel("paperbench", "51052cede8cc608f95bb00346635e03759013e5a", "0.1.0")).toBe(
      "PaperBench 51052cede8cc",
    );
    expect(promptSourceLabel("efficient", "51052ce", "0.1.0")).toBe("studio 0.1.0");
  });

  it("summarises in one line, a placeholder as not public", () => {
    expect(provenanceSummary(llmPb)).toBe(
      "o3-mini · paperbench mode · PaperBench 51052cede8cc · PaperBench default policies",
    );
    expect(provenanceSummary({ ...llmPb, judgeKind: "dummy", judgeModel: "dummy" })).toBe(
      "dummy placeholder judge · not public",
    );
  });
});

describe("scoringMethodOf (the leaderboard's mark)", () => {
  it("marks PaperBench method only when every grading qualifies", () => {
    expect(scoringMethodOf([llmPb, llmPb], DEFAULT_POLICIES)).toEqual({
      kind: "paperbench",
      label: "PaperBench method",
    });
    expect(scoringMethodOf([llmPb], { ...DEFAULT_POLICIES, reproduction_failed: "exclude" }).kind).toBe(
      "custom_policies",
    );
    expect(scoringMethodOf([{ ...llmPb, mode: "efficient" }], DEFAULT_POLICIES)).toEqual({
      kind: "efficient",
      label: "efficient mode",
    });
    expect(scoringMethodOf([llmPb, { ...llmPb, mode: "efficient" }], DEFAULT_POLICIES).kind).toBe("mixed");
  });

  it("reads each grading's own policies for a row as graded", () => {
    expect(scoringMethodOf([llmPb]).kind).toBe("paperbench");
    expect(scoringMethodOf([{ ...llmPb, policies: null }]).kind).toBe("paperbench_mode");
  });

  it("lets one placeholder grading mark the whole row", () => {
    expect(scoringMethodOf([llmPb, { ...llmPb, judgeKind: "random" }], DEFAULT_POLICIES)).toEqual({
      kind: "placeholder",
      label: PLACEHOLDER_LABEL,
    });
  });

  it("says what imported and human gradings are", () => {
    expect(scoringMethodOf([{ origin: "import", judgeKind: null, mode: null, policies: null }]).label).toBe(
      "imported gradings",
    );
    expect(scoringMethodOf([{ origin: "human", judgeKind: null, mode: null, policies: null }]).kind).toBe("human");
  });
});

describe("chooseDefaultJudge (the dialog's preselection and the API's default)", () => {
  const c = (
    id: string,
    kind: JudgeChoiceCandidate["kind"],
    mode: JudgeChoiceCandidate["mode"],
    extra: Partial<JudgeChoiceCandidate> = {},
  ): JudgeChoiceCandidate => ({
    id,
    name: id,
    kind,
    mode,
    isDefault: false,
    archived: false,
    ...extra,
  });

  it("prefers a model judge in paperbench mode, even over a default Dummy", () => {
    expect(
      chooseDefaultJudge([
        c("dummy", "dummy", "efficient", { isDefault: true }),
        c("eff", "llm", "efficient"),
        c("pb", "llm", "paperbench"),
      ]),
    ).toEqual({ id: "pb", placeholder: false });
  });

  it("takes staff's default among equals", () => {
    expect(
      chooseDefaultJudge([c("pb1", "llm", "paperbench"), c("pb2", "llm", "paperbench", { isDefault: true })])?.id,
    ).toBe("pb2");
  });

  it("falls back to the first model judge, then a placeholder said to be one", () => {
    expect(chooseDefaultJudge([c("dummy", "dummy", "efficient"), c("eff", "llm", "efficient")])).toEqual({
      id: "eff",
      placeholder: false,
    });
    expect(
      chooseDefaultJudge([c("dummy", "dummy", "efficient"), c("pb", "llm", "paperbench", { archived: true })]),
    ).toEqual({ id: "dummy", placeholder: true });
    expect(chooseDefaultJudge([])).toBeNull();
  });

  it("passes over a model judge whose key is not set, unless nothing is ready", () => {
    expect(
      chooseDefaultJudge([
        c("o3", "llm", "paperbench", { ready: false }),
        c("dummy", "dummy", "efficient", { isDefault: true }),
      ]),
    ).toEqual({ id: "dummy", placeholder: true });
    expect(chooseDefaultJudge([c("o3", "llm", "paperbench", { ready: false })])).toEqual({
      id: "o3",
      placeholder: false,
    });
  });
});
