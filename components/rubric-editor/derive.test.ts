import { describe, expect, it } from "vitest";
import { applyOperation } from "@/lib/rubric/apply-operation";
import type { LintDismissal } from "@/lib/rubric/lint-dismissals";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { deriveCore, deriveLint } from "./derive";
import { K, ROWS } from "./rows.testutil";

const none: LintDismissal[] = [];
const setWeight = (rows: readonly NodeRow[], n: number, weight: number) =>
  applyOperation(rows, { kind: "update", key: K(n), fields: { weight } });

describe("deriveLint", () => {
  it("hands back the previous lint when an edit changes no finding, so the editor renders nothing again", () => {
    const before = deriveLint(deriveCore(ROWS), none);
    const after = deriveLint(deriveCore(setWeight(ROWS, 2, 3)), none, before);
    expect(after).toBe(before);
  });

  it("answers a new lint when a finding appears or goes", () => {
    const before = deriveLint(deriveCore(ROWS), none);
    expect(before.findings).toEqual([]);
    const negative = deriveLint(deriveCore(setWeight(ROWS, 2, -1)), none, before);
    expect(negative).not.toBe(before);
    expect(negative.findings.map((f) => [f.key, f.code])).toContainEqual([K(2), "negative_weight"]);
    expect(negative.lintByKey.get(K(2))?.worst).toBe("error");
    const fixed = deriveLint(deriveCore(ROWS), none, negative);
    expect(fixed).not.toBe(negative);
    expect(fixed.findings).toEqual([]);
  });

  it("answers a new lint when the dismissals change, even to an equal list", () => {
    const rows = setWeight(ROWS, 2, -1);
    const before = deriveLint(deriveCore(rows), none);
    expect(deriveLint(deriveCore(rows), none, before)).toBe(before);
    const changed = deriveLint(deriveCore(rows), [], before);
    expect(changed).not.toBe(before);
    expect(changed.findings).toEqual(before.findings);
  });
});
