import { generateKeyBetween } from "fractional-indexing";
import { describe, expect, it } from "vitest";
import { diffRubrics, diffText, type RubricDiff } from "./diff";
import { ALL_PAPERS, skipWithoutData } from "./paperbench-data.testutil";
import { realRows, specRows, type Spec } from "./rows-fixtures.testutil";
import type { NodeRow } from "./tree-rows";

const base: Spec = {
  key: "r",
  kids: [
    { key: "a", kids: [{ key: "a1" }, { key: "a2" }, { key: "a3" }, { key: "a4" }] },
    { key: "b", w: 1, kids: [{ key: "b1" }] },
  ],
};

const empty = (d: RubricDiff) =>
  d.added.length + d.removed.length + d.moved.length + d.changed.length + d.shareChanges.length === 0;

const edit = (rows: NodeRow[], key: string, patch: Partial<NodeRow>): NodeRow[] =>
  rows.map((r) => (r.key === key ? { ...r, ...patch } : r));

const pos = (rows: NodeRow[], key: string) => rows.find((r) => r.key === key)!.position;

describe("diffText", () => {
  it("diffs by words and keeps the texts", () => {
    const parts = diffText(
      "The model is trained with Adam for 10 epochs.",
      "The model is trained with SGD for 20 epochs.",
    );
    expect(parts).toEqual([
      { op: "equal", text: "The model is trained with " },
      { op: "delete", text: "Adam" },
      { op: "insert", text: "SGD" },
      { op: "equal", text: " for " },
      { op: "delete", text: "10" },
      { op: "insert", text: "20" },
      { op: "equal", text: " epochs." },
    ]);
  });

  it("reassembles both sides for any edit", () => {
    const pairs = [
      ["", "new text"],
      ["old text", ""],
      ["same", "same"],
      ["Compute the F1-score on CIFAR-10", "Compute the macro F1 score on CIFAR-100 (test split)"],
      ["naïve — résumé 😀 x", "naïve — resume 😀😀 y"],
    ];
    for (const [a, b] of pairs) {
      const parts = diffText(a, b);
      expect(
        parts
          .filter((p) => p.op !== "insert")
          .map((p) => p.text)
          .join(""),
      ).toBe(a);
      expect(
        parts
          .filter((p) => p.op !== "delete")
          .map((p) => p.text)
          .join(""),
      ).toBe(b);
      expect(parts.every((p) => p.text !== "")).toBe(true);
    }
  });
});

describe("diffRubrics", () => {
  it("a tree against itself is empty", () => {
    const rows = specRows(base);
    expect(empty(diffRubrics(rows, rows))).toBe(true);
    expect(empty(diffRubrics(rows, rows.slice().reverse()))).toBe(true);
    expect(empty(diffRubrics([], []))).toBe(true);
  });

  it("adds and removes, with the leaves' share changes", () => {
    const before = specRows(base);
    const after = [
      ...before.filter((r) => r.key !== "b1" && r.key !== "b"),
      { ...before[1], key: "c", nodeId: "c-id", position: "a5", requirements: "New" },
    ];
    const d = diffRubrics(before, after);
    expect(d.added.map((r) => r.key)).toEqual(["c"]);
    expect(d.removed.map((r) => r.key)).toEqual(["b", "b1"]);
    expect(d.moved).toEqual([]);
    expect(d.changed).toEqual([]);
    // a: 1/2 → 1/2 (c weighs 1 like b), its leaves unchanged; b1 0.5 → gone; c new, 0.5.
    expect(d.shareChanges.map((s) => [s.key, s.before, s.after])).toEqual([
      ["c", 0, 0.5],
      ["b1", 0.5, 0],
    ]);
  });

  it("reports changed fields with a word diff of the requirements", () => {
    const before = specRows(base);
    let after = edit(before, "a2", { requirements: "Requirement a2, revised", weight: 3 });
    after = edit(after, "b1", { taskCategory: "Result Analysis", finegrainedTaskCategory: null, nodeId: "other" });
    const d = diffRubrics(before, after);
    expect(d.changed.map((c) => [c.key, c.fields])).toEqual([
      ["a2", ["requirements", "weight"]],
      ["b1", ["taskCategory", "finegrainedTaskCategory", "nodeId"]],
    ]);
    expect(d.changed[0].requirementsDiff).toEqual([
      { op: "equal", text: "Requirement a2" },
      { op: "insert", text: ", revised" },
    ]);
    expect(d.changed[1].requirementsDiff).toBeUndefined();
    // a2 now weighs 3 of a's 6: 0.25 → 0.125·3 = 0.25; a1, a3, a4: 0.125 → 0.0833…
    const changes = Object.fromEntries(d.shareChanges.map((s) => [s.key, [s.before, s.after]]));
    expect(Object.keys(changes).sort()).toEqual(["a1", "a2", "a3", "a4"]);
    expect(changes.a2[0]).toBeCloseTo(0.125, 15);
    expect(changes.a2[1]).toBeCloseTo(0.25, 15);
    expect(d.shareChanges[0].key).toBe("a2");
    expect(d.moved).toEqual([]);
  });

  it("moving one sibling reports that one, not every sibling after it", () => {
    const before = specRows(base);
    // a1 to the end of a's children.
    const after = edit(before, "a1", { position: generateKeyBetween(pos(before, "a4"), null) });
    const d = diffRubrics(before, after);
    expect(d.moved.map((m) => [m.key, m.parentChanged])).toEqual([["a1", false]]);
    expect(d.shareChanges).toEqual([]);
    // An insertion before the others moves nothing.
    const inserted = [
      ...before,
      { ...before[2], key: "a0", nodeId: "a0-id", position: generateKeyBetween(null, pos(before, "a1")) },
    ];
    const d2 = diffRubrics(before, inserted);
    expect(d2.moved).toEqual([]);
    expect(d2.added.map((r) => r.key)).toEqual(["a0"]);
    // A swap of two neighbours is one move.
    const swapped = edit(edit(before, "a2", { position: pos(before, "a3") }), "a3", { position: pos(before, "a2") });
    expect(diffRubrics(before, swapped).moved).toHaveLength(1);
  });

  it("a new parent is a move with parentChanged", () => {
    const before = specRows(base);
    const after = edit(before, "a3", { parentKey: "b", position: generateKeyBetween(pos(before, "b1"), null) });
    const d = diffRubrics(before, after);
    expect(d.moved.map((m) => [m.key, m.parentChanged, m.before.parentKey, m.after.parentKey])).toEqual([
      ["a3", true, "a", "b"],
    ]);
    // a3 goes from 1/8 to 1/4 of the score (b's two children share its half); b1 from 1/2 to 1/4.
    const changes = Object.fromEntries(d.shareChanges.map((s) => [s.key, [s.before, s.after]]));
    expect(changes.a3).toEqual([0.125, 0.25]);
    expect(changes.b1).toEqual([0.5, 0.25]);
  });

  it("matches rows by PaperBench id after a re-import (new keys)", () => {
    const before = specRows(base);
    const rekey = (k: string | null) => (k === null ? null : `new-${k}`);
    let after = before.map((r) => ({ ...r, key: rekey(r.key)!, parentKey: rekey(r.parentKey) }));
    expect(empty(diffRubrics(before, after))).toBe(true);
    after = after.map((r) => (r.key === "new-a2" ? { ...r, requirements: "Changed" } : r));
    const d = diffRubrics(before, after);
    expect(d.changed.map((c) => [c.key, c.before.key, c.fields])).toEqual([["new-a2", "a2", ["requirements"]]]);
    expect(d.added).toEqual([]);
    expect(d.removed).toEqual([]);
  });

  it("matches repeated ids among the children of matched parents, in order, only when the counts agree", () => {
    const spec: Spec = {
      key: "r",
      id: "root",
      kids: [
        {
          key: "p",
          id: "p",
          kids: [
            { key: "a", id: "dup", req: "first" },
            { key: "b", id: "dup", req: "second" },
            { key: "c", id: "c" },
          ],
        },
        { key: "q", id: "q", kids: [{ key: "d", id: "dup" }] },
      ],
    };
    const before = specRows(spec);
    const rekey = (rows: NodeRow[]) =>
      rows.map((r) => ({ ...r, key: `n${r.key}`, parentKey: r.parentKey && `n${r.parentKey}` }));
    // "dup" is on three rows: not unique, so matched under p (two and two, in order) and q (one and one).
    expect(empty(diffRubrics(before, rekey(before)))).toBe(true);
    // A third "dup" under p after: the counts differ there, so p's "dup" rows are removed and added.
    const after = rekey(before);
    after.push({ ...after.find((r) => r.key === "na")!, key: "nz", position: "a9", requirements: "third" });
    const d = diffRubrics(before, after);
    expect(d.removed.map((r) => r.key)).toEqual(["a", "b"]);
    expect(d.added.map((r) => r.key)).toEqual(["na", "nb", "nz"]);
    expect(d.changed).toEqual([]);
  });
});

describe("diffRubrics on the real rubrics", () => {
  it.skipIf(skipWithoutData).each(ALL_PAPERS)("%s: empty against itself and against its re-import", (paper) => {
    const rows = realRows(paper);
    expect(empty(diffRubrics(rows, rows))).toBe(true);
    const reimported = realRows(paper, "re");
    const d = diffRubrics(rows, reimported);
    // Duplicate ids (bbox, bridging-data-gaps) cannot be matched by id: they show as removed and
    // added; everything else matches.
    expect(d.added.length).toBe(d.removed.length);
    expect(d.changed).toEqual([]);
    expect(d.shareChanges).toEqual([]);
    const ids = new Map<string, number>();
    for (const r of rows) ids.set(r.nodeId, (ids.get(r.nodeId) ?? 0) + 1);
    expect(d.removed.every((r) => ids.get(r.nodeId)! > 1)).toBe(true);
  });

  it.skipIf(skipWithoutData)("pinn: a diff with edits everywhere finds every change, and none against itself", () => {
    const before = realRows("pinn");
    // Edit every 10th requirement, reweight every 7th node, drop a subtree, re-key everything.
    const dropped = new Set(
      before
        .filter((r) => r.parentKey === before[1].key)
        .map((r) => r.key)
        .slice(0, 1),
    );
    const after = before
      .filter((r) => !dropped.has(r.key) && !dropped.has(r.parentKey ?? ""))
      .map((r, i) => ({
        ...r,
        key: `x${r.key}`,
        parentKey: r.parentKey && `x${r.parentKey}`,
        requirements: i % 10 === 0 ? `${r.requirements} (revised: use the held-out split)` : r.requirements,
        weight: i % 7 === 0 ? r.weight + 1 : r.weight,
      }));
    const d = diffRubrics(before, after);
    expect(d.changed.length).toBeGreaterThan(300);
    expect(d.removed.length).toBeGreaterThan(0);
    const same = diffRubrics(before, before);
    expect([same.changed.length, same.removed.length, same.shareChanges.length]).toEqual([0, 0, 0]);
  });
});
