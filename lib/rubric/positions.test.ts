import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { positionsForInsert } from "./positions";
import { buildTreeIndex } from "./tree-index";
import type { NodeRow } from "./tree-rows";
import { propertyParams } from "@/test/property";

const row = (key: string, parentKey: string | null, position: string): NodeRow => ({
  key,
  parentKey,
  position,
  nodeId: key,
  requirements: "",
  weight: 1,
  taskCategory: null,
  finegrainedTaskCategory: null,
});

/** A root `p` with children at the given positions (keys c0, c1, …). */
const family = (positions: string[]) =>
  buildTreeIndex([row("p", null, "a0"), ...positions.map((pos, i) => row(`c${i}`, "p", pos))]);

/** Inserts the new keys as rows and gives back the children's keys in sibling order. */
const insertAndOrder = (positions: string[], at: number, count: number) => {
  const index = family(positions);
  const added = positionsForInsert(index, "p", at, count);
  const rows = [...index.preorder, ...added.map((pos, i) => row(`n${i}`, "p", pos))];
  return {
    added,
    order: buildTreeIndex(rows)
      .children("p")
      .map((r) => r.key),
  };
};

describe("positionsForInsert", () => {
  it("places new nodes first, between, and last", () => {
    const positions = ["a0", "a1", "a2"];
    expect(insertAndOrder(positions, 0, 1).order).toEqual(["n0", "c0", "c1", "c2"]);
    expect(insertAndOrder(positions, 1, 2).order).toEqual(["c0", "n0", "n1", "c1", "c2"]);
    expect(insertAndOrder(positions, 3, 3).order).toEqual(["c0", "c1", "c2", "n0", "n1", "n2"]);
  });

  it("works under a parent without children, and an unknown parent", () => {
    const index = family([]);
    expect(positionsForInsert(index, "p", 0, 3)).toHaveLength(3);
    expect(positionsForInsert(index, "nope", 5)).toEqual(["a0"]);
  });

  it("clamps the index, and gives [] for no nodes", () => {
    expect(insertAndOrder(["a0", "a1"], -4, 1).order).toEqual(["n0", "c0", "c1"]);
    expect(insertAndOrder(["a0", "a1"], 99, 1).order).toEqual(["c0", "c1", "n0"]);
    expect(insertAndOrder(["a0", "a1"], 1.7, 1).order).toEqual(["c0", "n0", "c1"]);
    expect(positionsForInsert(family(["a0"]), "p", 0, 0)).toEqual([]);
  });

  it("with equal neighbours (concurrent inserts), goes right after the last equal one", () => {
    // c1, c2, c3 share "a1": inserting at 2 (between c1 and c2) lands after c3.
    const { order, added } = insertAndOrder(["a0", "a1", "a1", "a1", "a2"], 2, 2);
    expect(order).toEqual(["c0", "c1", "c2", "c3", "n0", "n1", "c4"]);
    expect(added[0] > "a1" && added[1] < "a2").toBe(true);
    // Equal positions at the end: after them, unbounded.
    expect(insertAndOrder(["a0", "a1", "a1"], 2, 1).order).toEqual(["c0", "c1", "c2", "n0"]);
    // Before the first of equal ones is an ordinary range.
    expect(insertAndOrder(["a1", "a1"], 0, 1).order).toEqual(["n0", "c0", "c1"]);
  });

  it("never throws on positions fractional-indexing refuses", () => {
    // "a10" ends in 0 (not a valid key); "zzz" has a malformed integer part.
    for (const positions of [
      ["a0", "a10", "a2"],
      ["zzz", "a1"],
      ["a0", "a0"],
    ]) {
      for (let at = 0; at <= positions.length; at++) {
        expect(() => positionsForInsert(family(positions), "p", at, 2)).not.toThrow();
      }
    }
  });

  it("property: the new nodes sit together, in order, at the asked place (ties aside)", () => {
    const positionsArb = fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 8 }).map((steps) => {
      // Valid increasing keys with repeats: a chain from generateKeyBetween, some steps repeated.
      const keys: string[] = [];
      let last: string | null = null;
      for (const s of steps) {
        if (last === null || s > 1) last = positionsForInsert(family(last ? [last] : []), "p", 1, 1)[0];
        keys.push(last);
      }
      return keys;
    });
    fc.assert(
      fc.property(positionsArb, fc.nat(), fc.integer({ min: 1, max: 4 }), (positions, rawAt, count) => {
        const at = rawAt % (positions.length + 1);
        const { order, added } = insertAndOrder(positions, at, count);
        expect(new Set(added).size).toBe(count);
        const first = order.indexOf("n0");
        expect(order.slice(first, first + count)).toEqual(added.map((_, i) => `n${i}`));
        // Where the neighbours differ, exactly at `at`; else right after the tie group.
        let expected = at;
        while (at > 0 && expected < positions.length && positions[expected] === positions[at - 1]) expected++;
        expect(first).toBe(expected);
      }),
      propertyParams({ numRuns: 500, seed: 11 }),
    );
  });
});
