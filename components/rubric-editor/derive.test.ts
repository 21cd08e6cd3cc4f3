import { describe, expect, it } from "vitest";
import { applyOperation } from "@/lib/rubric/apply-operation";
import type { LintDismissal } from "@/lib/rubric/lint-dismissals";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { deriveCore, deriveLint } from "./derive";
import { K, ROWS } from "./rows.testutil";

const none: LintDismissal[] = [];
const setWeight = (rows: readonly NodeRow[], n: number, weight: number) =>
  applyOperation(rows, { kind: "update", key: K(n), fields: { weight } });

describe("deriveCore after an edit", () => {
  const fresh = (rows: readonly NodeRow[]) => deriveCore(rows);
  const sameAnswers = (a: ReturnType<typeof deriveCore>, b: ReturnType<typeof deriveCore>) => {
    expect(a.index.preorder).toEqual(b.index.preorder);
    expect([...a.index.byKey]).toEqual([...b.index.byKey]);
    for (const row of b.index.preorder) expect(a.index.children(row.key)).toEqual(b.index.children(row.key));
    expect([...a.shares]).toEqual([...b.shares]);
    expect(a.maxDepth).toBe(b.maxDepth);
  };

  it("patches the index of a field edit and answers as a new derivation does", () => {
    const before = deriveCore(ROWS);
    const rows = setWeight(ROWS, 2, 3);
    const after = deriveCore(rows, before);
    sameAnswers(after, fresh(rows));
    // The tree data is kept (react-arborist keeps its nodes); the edited row is the new one.
    expect(after.data).toBe(before.data);
    expect(after.index.byKey.get(K(2))?.weight).toBe(3);
    expect(before.index.byKey.get(K(2))?.weight).not.toBe(3);
  });

  it("keeps the shares when no weight changed, and computes them again when one did", () => {
    const before = deriveCore(ROWS);
    const text = deriveCore(
      applyOperation(ROWS, { kind: "update", key: K(2), fields: { requirements: "New text" } }),
      before,
    );
    expect(text.shares).toBe(before.shares);
    const weighed = deriveCore(setWeight(ROWS, 2, 5), before);
    expect(weighed.shares).not.toBe(before.shares);
    sameAnswers(weighed, fresh(setWeight(ROWS, 2, 5)));
  });

  it("builds anew when the structure changed", () => {
    const before = deriveCore(ROWS);
    const rows = applyOperation(ROWS, { kind: "delete", keys: [K(2)] });
    const after = deriveCore(rows, before);
    expect(after.data).not.toBe(before.data);
    sameAnswers(after, fresh(rows));
  });
});

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
