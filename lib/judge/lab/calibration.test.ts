import { describe, expect, it } from "vitest";
import { dummySuggestions, parseSuggestions, suggestionMessages, type CalibrationOverride } from "./calibration";

function override(id: string, over: Partial<CalibrationOverride> = {}): CalibrationOverride {
  return {
    id,
    gradingId: "g",
    submissionId: "s",
    agentName: "agent",
    runIndex: 1,
    nodeKey: `k-${id}`,
    nodeId: `leaf-${id}`,
    requirements: `Requirement ${id}`,
    category: "Code Development",
    judgeScore: 1,
    humanScore: 0,
    reason: `reason ${id}`,
    userName: null,
    createdAt: "2026-01-01T00:00:00Z",
    ...over,
  };
}

describe("the suggestion prompt", () => {
  it("lists each override with a reason by id, with requirement, scores and reason; none without a reason", () => {
    const messages = suggestionMessages({ id: "p", title: "Paper", judgeAddendum: "Be strict." }, [
      override("o1"),
      override("o2", { reason: "  " }),
    ]);
    const user = messages[1].content;
    expect(user).toContain('<override id="o1">');
    expect(user).toContain("Requirement o1");
    expect(user).toContain("Judge's score: 1; the person's score: 0");
    expect(user).toContain("Reason: reason o1");
    expect(user).toContain("Be strict.");
    expect(user).not.toContain("o2");
  });
});

describe("parseSuggestions", () => {
  const known = new Set(["o1", "o2"]);
  it("reads a fenced or embedded answer, keeping only the ids shown", () => {
    const content =
      'Here:\n```json\n{"suggestions": [{"text": "Check the seeds.", "overrideIds": ["o1", "zz"]}, {"text": "x", "overrideIds": ["nope"]}, {"text": "", "overrideIds": ["o2"]}]}\n```';
    const parsed = parseSuggestions(content, known)!;
    expect(parsed.suggestions).toEqual([{ text: "Check the seeds.", overrideIds: ["o1"] }]);
    expect(parsed.notes).toHaveLength(4);
  });
  it("is null when the answer holds no suggestions", () => {
    expect(parseSuggestions("I cannot help.", known)).toBeNull();
    expect(parseSuggestions('{"other": 1}', known)).toBeNull();
  });
});

describe("dummySuggestions", () => {
  it("one per overridden leaf with its reasons and the overrides behind it, deterministic", () => {
    const overrides = [
      override("o1"),
      override("o2", { nodeId: "leaf-o1", requirements: "Requirement o1", reason: "reason o1" }),
      override("o3", { judgeScore: 0, humanScore: 1 }),
      override("o4", { reason: "" }),
    ];
    const out = dummySuggestions(overrides);
    expect(out).toEqual(dummySuggestions(overrides));
    expect(out.map((s) => s.overrideIds)).toEqual([["o1", "o2"], ["o3"]]);
    expect(out[0].text).toBe(
      'For the requirement "Requirement o1": People scored this lower than the judge. reason o1.',
    );
    expect(out[1].text).toContain("higher than the judge");
  });
});
