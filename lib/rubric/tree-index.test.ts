import { describe, expect, it } from "vitest";
import { ALL_PAPERS, skipWithoutData } from "./paperbench-data.testutil";
import { realRows, realTree, specRows } from "./rows-fixtures.testutil";
import { buildTreeIndex, preorderLayout, subtreeRange, withReplacedRows, type TreeIndex } from "./tree-index";
import type { NodeRow } from "./tree-rows";
import { rubricStats, walkRubric } from "./walk";

//      r
//    / | \
//   a  b  c
//  / \     \
// a1 a2     c1
//            \
//            c11
const small = () =>
  specRows({
    key: "r",
    kids: [
      { key: "a", kids: [{ key: "a1" }, { key: "a2" }] },
      { key: "b" },
      { key: "c", kids: [{ key: "c1", kids: [{ key: "c11" }] }] },
    ],
  });

const keys = (rows: readonly NodeRow[]) => rows.map((r) => r.key);

describe("buildTreeIndex", () => {
  it("indexes children, parents, depths, leaves, pre-order and subtrees", () => {
    const index = buildTreeIndex(small());
    expect(index.root?.key).toBe("r");
    expect(index.byKey.size).toBe(8);
    expect(keys(index.preorder)).toEqual(["r", "a", "a1", "a2", "b", "c", "c1", "c11"]);
    expect(keys(index.children("r"))).toEqual(["a", "b", "c"]);
    expect(keys(index.children("b"))).toEqual([]);
    expect(keys(index.children("nope"))).toEqual([]);
    expect(index.parentOf("a2")?.key).toBe("a");
    expect(index.parentOf("r")).toBeNull();
    expect(index.parentOf("nope")).toBeNull();
    expect(index.depthOf("r")).toBe(0);
    expect(index.depthOf("c11")).toBe(3);
    expect(index.depthOf("nope")).toBe(-1);
    expect(["r", "a", "a1", "b", "c", "c1", "c11", "nope"].map(index.isLeaf)).toEqual([
      false,
      false,
      true,
      true,
      false,
      false,
      true,
      false,
    ]);
    expect(index.subtreeKeys("a")).toEqual(["a", "a1", "a2"]);
    expect(index.subtreeKeys("c")).toEqual(["c", "c1", "c11"]);
    expect(index.subtreeKeys("b")).toEqual(["b"]);
    expect(index.subtreeKeys("r")).toEqual(keys(index.preorder));
    expect(index.subtreeKeys("nope")).toEqual([]);
    expect(subtreeRange(index, "c")).toEqual([5, 8]);
    expect(subtreeRange(index, "nope")).toEqual([0, 0]);
  });

  it("preorderLayout gives positions, parents and subtree ends, also for another implementation", () => {
    const index = buildTreeIndex(small());
    const layout = preorderLayout(index);
    expect([...layout.position]).toEqual(index.preorder.map((r, i) => [r.key, i]));
    expect(layout.parent).toEqual([-1, 0, 1, 1, 0, 0, 5, 6]);
    expect(layout.end).toEqual([8, 4, 3, 4, 5, 8, 8, 8]);
    const other = { ...index }; // same members, not built here: the layout is derived
    const derived = preorderLayout(other);
    expect(derived).not.toBe(layout);
    expect({ ...derived, position: [...derived.position] }).toEqual({ ...layout, position: [...layout.position] });
    expect(subtreeRange(other, "a")).toEqual([1, 4]);
  });

  it("isAncestor is a proper ancestor test", () => {
    const index = buildTreeIndex(small());
    expect(index.isAncestor("r", "c11")).toBe(true);
    expect(index.isAncestor("c", "c11")).toBe(true);
    expect(index.isAncestor("c11", "c11")).toBe(false);
    expect(index.isAncestor("a", "c11")).toBe(false);
    expect(index.isAncestor("c11", "c")).toBe(false);
    expect(index.isAncestor("b", "b")).toBe(false);
    expect(index.isAncestor("nope", "b")).toBe(false);
  });

  it("orders children by position, then key, whatever the row order", () => {
    const rows: NodeRow[] = [
      {
        key: "z",
        parentKey: "r",
        position: "a1",
        nodeId: "z",
        requirements: "",
        weight: 1,
        taskCategory: null,
        finegrainedTaskCategory: null,
      },
      {
        key: "y",
        parentKey: "r",
        position: "a1",
        nodeId: "y",
        requirements: "",
        weight: 1,
        taskCategory: null,
        finegrainedTaskCategory: null,
      },
      {
        key: "x",
        parentKey: "r",
        position: "a2",
        nodeId: "x",
        requirements: "",
        weight: 1,
        taskCategory: null,
        finegrainedTaskCategory: null,
      },
      {
        key: "w",
        parentKey: "r",
        position: "a0",
        nodeId: "w",
        requirements: "",
        weight: 1,
        taskCategory: null,
        finegrainedTaskCategory: null,
      },
      {
        key: "r",
        parentKey: null,
        position: "a0",
        nodeId: "r",
        requirements: "",
        weight: 1,
        taskCategory: null,
        finegrainedTaskCategory: null,
      },
    ];
    const index = buildTreeIndex(rows);
    expect(keys(index.children("r"))).toEqual(["w", "y", "z", "x"]);
    expect(keys(index.preorder)).toEqual(["r", "w", "y", "z", "x"]);
  });

  it("ignores rows under a missing parent and rows in a detached cycle", () => {
    const rows = small();
    rows.push(
      { ...rows[1], key: "orphan", parentKey: "gone" },
      { ...rows[1], key: "orphan-child", parentKey: "orphan" },
      { ...rows[1], key: "loop1", parentKey: "loop2" },
      { ...rows[1], key: "loop2", parentKey: "loop1" },
    );
    const index = buildTreeIndex(rows);
    expect(index.byKey.size).toBe(8);
    expect(index.byKey.has("orphan")).toBe(false);
    expect(index.byKey.has("loop1")).toBe(false);
    expect(index.children("orphan")).toEqual([]);
    expect(index.depthOf("orphan-child")).toBe(-1);
  });

  it("is empty without rows, and refuses two roots", () => {
    const index = buildTreeIndex([]);
    expect(index.root).toBeNull();
    expect(index.preorder).toEqual([]);
    expect(index.byKey.size).toBe(0);
    const rows = small();
    rows.push({ ...rows[0], key: "r2" });
    expect(() => buildTreeIndex(rows)).toThrow(/2 root nodes/);
  });

  it("handles a 20,000-level chain without recursion", () => {
    const rows: NodeRow[] = [];
    for (let i = 0; i < 20_000; i++) {
      rows.push({
        key: `n${i}`,
        parentKey: i === 0 ? null : `n${i - 1}`,
        position: "a0",
        nodeId: `n${i}`,
        requirements: "",
        weight: 1,
        taskCategory: null,
        finegrainedTaskCategory: null,
      });
    }
    const index = buildTreeIndex(rows);
    expect(index.depthOf("n19999")).toBe(19_999);
    expect(index.isAncestor("n0", "n19999")).toBe(true);
    expect(index.subtreeKeys("n19990")).toHaveLength(10);
  });
});

/** Every answer of an index, over every key, as plain data (closures compared by what they say). */
function answers(index: TreeIndex) {
  const all = index.preorder.map((r) => r.key);
  return {
    root: index.root,
    byKey: [...index.byKey],
    preorder: index.preorder,
    perKey: all.map((k) => ({
      children: index.children(k),
      parent: index.parentOf(k),
      depth: index.depthOf(k),
      leaf: index.isLeaf(k),
      subtree: index.subtreeKeys(k),
      ancestors: all.filter((a) => index.isAncestor(a, k)),
      range: subtreeRange(index, k),
    })),
  };
}

describe("withReplacedRows", () => {
  it("answers what a new build over the edited rows answers, and leaves the old index as it was", () => {
    const rows = small();
    const index = buildTreeIndex(rows);
    const before = answers(index);
    // A leaf, a parent and the root, edited in their fields.
    const edited = rows.map((r) =>
      ["a2", "c", "r"].includes(r.key) ? { ...r, weight: r.weight + 2, requirements: `${r.requirements}!` } : r,
    );
    const patched = withReplacedRows(
      index,
      edited.filter((r, i) => r !== rows[i]),
    );
    expect(patched).not.toBeNull();
    expect(answers(patched!)).toEqual(answers(buildTreeIndex(edited)));
    expect(patched!.children("a")[1]).toBe(edited.find((r) => r.key === "a2"));
    expect(patched!.root).toBe(edited.find((r) => r.key === "r"));
    expect(answers(index)).toEqual(before);
  });

  it("refuses a row that moved or is not in the index (the caller builds anew)", () => {
    const rows = small();
    const index = buildTreeIndex(rows);
    const a1 = rows.find((r) => r.key === "a1")!;
    expect(withReplacedRows(index, [{ ...a1, parentKey: "b" }])).toBeNull();
    expect(withReplacedRows(index, [{ ...a1, position: "zz" }])).toBeNull();
    expect(withReplacedRows(index, [{ ...a1, key: "new" }])).toBeNull();
  });
});

describe("buildTreeIndex on the real rubrics", () => {
  it.skipIf(skipWithoutData).each(ALL_PAPERS)("%s: pre-order and depths match the tree", (paper) => {
    const tree = realTree(paper);
    const rows = realRows(paper);
    // Shuffle: the index must not rely on the row order.
    const shuffled = rows
      .map((r, i) => [((i * 7919) % 10007) + i / 1e6, r] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, r]) => r);
    const index = buildTreeIndex(shuffled);
    const ids: string[] = [];
    const depths: number[] = [];
    walkRubric(tree, (node, _path, depth) => {
      ids.push(node.id);
      depths.push(depth - 1);
    });
    expect(index.preorder.map((r) => r.nodeId)).toEqual(ids);
    expect(index.preorder.map((r) => index.depthOf(r.key))).toEqual(depths);
    expect(index.preorder.filter((r) => index.isLeaf(r.key)).length).toBe(rubricStats(tree).leaves);
  });
});
