import { describe, expect, it } from "vitest";
import { CODE_DEV_CATEGORY, toCodeDevRows, toCodeDevTree } from "./code-dev";
import { ALL_PAPERS, skipWithoutData } from "./paperbench-data.testutil";
import { realRows, realTree, specRows, specTree, type Spec } from "./rows-fixtures.testutil";
import { rowsToTree, treeToRows } from "./tree-rows";
import type { RubricNode } from "./types";
import { walkRubric } from "./walk";

const CE = "Code Execution";
const RA = "Result Analysis";

const spec: Spec = {
  key: "r",
  kids: [
    {
      key: "a",
      w: 2,
      kids: [
        { key: "a1", w: 3 },
        { key: "a2", cat: CE },
        { key: "a3", w: 5 },
      ],
    },
    {
      key: "b",
      kids: [
        { key: "b1", cat: RA },
        { key: "b2", kids: [{ key: "b21", cat: CE }] },
      ],
    },
    {
      key: "c",
      kids: [
        {
          key: "c1",
          kids: [
            { key: "c11", cat: RA },
            { key: "c12", w: 7 },
          ],
        },
      ],
    },
    { key: "d", cat: RA },
  ],
};

/** Requirements of a tree in pre-order, with the weights: a compact picture. */
const shape = (tree: RubricNode | null): string[] => {
  const out: string[] = [];
  if (tree)
    walkRubric(tree, (n, _p, depth) => out.push(`${depth}:${n.requirements.replace("Requirement ", "")}/${n.weight}`));
  return out;
};

describe("toCodeDevTree", () => {
  it("keeps the Code Development leaves and the internal nodes above them, weights unchanged", () => {
    const tree = specTree(spec);
    const before = JSON.stringify(tree);
    const cd = toCodeDevTree(tree);
    expect(shape(cd)).toEqual(["1:r/1", "2:a/2", "3:a1/3", "3:a3/5", "2:c/1", "3:c1/1", "4:c12/7"]);
    expect(JSON.stringify(tree)).toBe(before); // input untouched
  });

  it("gives null when no Code Development leaf is left, and keeps a Code Development root leaf", () => {
    expect(
      toCodeDevTree(
        specTree({
          key: "r",
          kids: [
            { key: "a", cat: CE },
            { key: "b", kids: [{ key: "b1", cat: RA }] },
          ],
        }),
      ),
    ).toBeNull();
    expect(toCodeDevTree(specTree({ key: "r", cat: RA }))).toBeNull();
    expect(shape(toCodeDevTree(specTree({ key: "r" })))).toEqual(["1:r/1"]);
  });

  it("follows PaperBench on drafts: a categorised internal node is kept as a leaf or loses its category", () => {
    // reduce_to_category: an internal node whose own task_category is "Code Development" survives
    // as a leaf when none of its children does; set_sub_tasks clears the category when some do.
    const tree = specTree({
      key: "r",
      kids: [
        { key: "x", cat: CODE_DEV_CATEGORY, kids: [{ key: "x1", cat: RA }] },
        { key: "y", cat: CODE_DEV_CATEGORY, kids: [{ key: "y1" }] },
        { key: "z", cat: RA, kids: [{ key: "z1", cat: CE }] },
      ],
    });
    const cd = toCodeDevTree(tree)!;
    expect(cd.sub_tasks.map((n) => [n.requirements, n.task_category, n.sub_tasks.length])).toEqual([
      ["Requirement x", CODE_DEV_CATEGORY, 0],
      ["Requirement y", null, 1],
    ]);
  });
});

describe("toCodeDevRows", () => {
  it("keeps the same rows as the tree version, in the input order, as the same objects", () => {
    const rows = specRows(spec);
    const kept = toCodeDevRows(rows);
    expect(kept.map((r) => r.key)).toEqual(["r", "a", "a1", "a3", "c", "c1", "c12"]);
    for (const row of kept) expect(rows).toContain(row);
    expect(rowsToTree(kept)).toEqual(toCodeDevTree(specTree(spec)));
  });

  it("drops unreachable rows; empty when nothing is kept", () => {
    const rows = specRows(spec);
    rows.push({ ...rows[2], key: "orphan", parentKey: "gone" });
    expect(toCodeDevRows(rows).map((r) => r.key)).not.toContain("orphan");
    expect(toCodeDevRows(specRows({ key: "r", kids: [{ key: "a", cat: CE }] }))).toEqual([]);
    expect(toCodeDevRows([])).toEqual([]);
  });
});

describe("Code-Dev on the real rubrics", () => {
  it.skipIf(skipWithoutData).each(ALL_PAPERS)(
    "%s: only Code Development leaves, no empty internal node, every such leaf kept",
    (paper) => {
      const tree = realTree(paper);
      let codeDevLeaves = 0;
      walkRubric(tree, (n) => {
        if (n.sub_tasks.length === 0 && n.task_category === CODE_DEV_CATEGORY) codeDevLeaves++;
      });
      const cd = toCodeDevTree(tree)!;
      expect(cd).not.toBeNull();
      let leaves = 0;
      walkRubric(cd, (n) => {
        if (n.sub_tasks.length === 0) {
          leaves++;
          expect(n.task_category).toBe(CODE_DEV_CATEGORY);
        } else {
          expect(n.task_category).toBeNull();
        }
      });
      expect(leaves).toBe(codeDevLeaves);
      // Rows give the same tree.
      const rows = realRows(paper);
      expect(rowsToTree(toCodeDevRows(rows))).toEqual(cd);
      // Ids and fields are carried over unchanged: the Code-Dev tree's rows match the original's.
      const original = new Map(treeToRows(tree, counter()).map((r) => [r.nodeId, r.requirements]));
      walkRubric(cd, (n) => expect(original.get(n.id)).toBeDefined());
    },
  );

  it.skipIf(skipWithoutData)("leaf counts (checked with Python on the data)", () => {
    const counts = Object.fromEntries(
      ALL_PAPERS.map((paper) => {
        let n = 0;
        walkRubric(toCodeDevTree(realTree(paper))!, (node) => void (node.sub_tasks.length === 0 && n++));
        return [paper, n];
      }),
    );
    expect(counts.pinn).toBe(126);
    expect(counts["what-will-my-model-forget"]).toBe(872);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(3671);
  });
});

function counter(): () => string {
  let i = 0;
  return () => `c${i++}`;
}
