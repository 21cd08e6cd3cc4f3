import { describe, expect, it } from "vitest";
import { leaf, node } from "@/lib/grading/grading-data.testutil";
import { recomputeScores, toRubricTree } from "@/lib/grading/graded-tree";
import { treeToRows } from "@/lib/rubric/tree-rows";
import { UNGRADED_EXPLANATION } from "@/lib/grading/types";
import { buildPinnedGradedTree, isSameRubric, pinnedGradingScores, viewRows } from "./pinned-tree";

const graded = recomputeScores(
  node("root", 1, [
    node("a", 2, [leaf("a1", 1, 1), leaf("a2", 3, 0, "Code Execution")]),
    leaf("b", 1, 0.5, "Result Analysis"),
  ]),
);

function rowsOf(tree = graded) {
  let k = 0;
  return treeToRows(toRubricTree(tree), () => `00000000-0000-4000-8000-${String(k++).padStart(12, "0")}`);
}

describe("a stored grading as a graded tree", () => {
  it("knows a graded tree for the rubric it was graded against, and no other", () => {
    const rows = viewRows(rowsOf(), "full");
    expect(isSameRubric(graded, rows)).toBe(true);
    const heavier = recomputeScores(graded);
    heavier.sub_tasks[1].weight = 2;
    expect(isSameRubric(heavier, rows)).toBe(false);
    const reworded = recomputeScores(graded);
    reworded.sub_tasks[0].sub_tasks[0].requirements += "!";
    expect(isSameRubric(reworded, rows)).toBe(false);
    // The Code-Dev view keeps a1 only.
    const codeDev = viewRows(rowsOf(), "code-dev");
    expect(codeDev.map((r) => r.nodeId)).toEqual(["root", "a", "a1"]);
    expect(isSameRubric(graded, codeDev)).toBe(false);
  });

  it("views a rubric without a Code Development leaf, Code-Dev, as its root alone, a Code Development leaf (PaperBench's run_judge)", () => {
    const noCodeDev = recomputeScores(
      node("root", 1, [leaf("x", 1, 0, "Code Execution"), leaf("y", 1, 0, "Result Analysis")]),
    );
    const codeDev = viewRows(rowsOf(noCodeDev), "code-dev");
    expect(codeDev.map((r) => [r.nodeId, r.parentKey, r.taskCategory])).toEqual([["root", null, "Code Development"]]);
    const verdict = { nodeKey: codeDev[0].key, score: 1, valid: true, explanation: "root", judgeMetadata: null };
    expect(buildPinnedGradedTree(codeDev, [verdict]).scores.rootScore).toBe(1);
    expect(viewRows([], "code-dev")).toEqual([]);
  });

  it("rebuilds the scores from verdicts; the latest override wins; a leaf without a verdict counts 0", () => {
    const rows = viewRows(rowsOf(), "full");
    const key = (id: string) => rows.find((r) => r.nodeId === id)!.key;
    const verdict = (id: string, score: number) => ({
      nodeKey: key(id),
      score,
      valid: true,
      explanation: id,
      judgeMetadata: null,
    });
    const full = buildPinnedGradedTree(rows, [verdict("a1", 1), verdict("a2", 0), verdict("b", 0.5)]);
    expect(Object.is(full.scores.rootScore, graded.score)).toBe(true);
    expect(full.keys).toEqual(rows.map((r) => r.key));

    const overridden = buildPinnedGradedTree(
      rows,
      [verdict("a1", 1), verdict("a2", 0), verdict("b", 0.5)],
      [
        { nodeKey: key("a2"), newScore: 0.5 },
        { nodeKey: key("a2"), newScore: 1 },
      ],
    );
    expect(overridden.scores.rootScore).toBe(1 - 0.5 / 3);
    // The tree itself says what the verdicts said.
    expect(overridden.tree.score).toBe(graded.score);

    const partial = buildPinnedGradedTree(rows, [verdict("a1", 1)]);
    const b = partial.tree.sub_tasks[1];
    expect(b).toMatchObject({ valid_score: false, explanation: UNGRADED_EXPLANATION });
    expect(partial.scores.rootScore).toBe((2 * (1 / 4)) / 3);
  });

  it("computes the same scores from verdict scores alone as from the graded tree (an invalid verdict, an ungraded leaf, overrides)", () => {
    const rows = viewRows(rowsOf(), "full");
    const key = (id: string) => rows.find((r) => r.nodeId === id)!.key;
    const overrides = [
      { nodeKey: key("a1"), newScore: 0 },
      { nodeKey: key("a1"), newScore: 0.25 },
      { nodeKey: key("a"), newScore: 1 }, // not a leaf: ignored by both
    ];
    const cases = [
      [
        { nodeKey: key("a1"), score: 1, valid: true },
        { nodeKey: key("a2"), score: 1, valid: false },
      ],
      [{ nodeKey: key("b"), score: 0.5, valid: true }],
    ];
    for (const verdicts of cases) {
      for (const o of [[], overrides]) {
        const full = buildPinnedGradedTree(
          rows,
          verdicts.map((v) => ({ ...v, explanation: "why", judgeMetadata: null })),
          o,
        );
        const scores = pinnedGradingScores(rows, verdicts, o);
        expect(rows.map((_, i) => scores.scoreOf(i))).toEqual(rows.map((_, i) => full.scores.scoreOf(i)));
        expect(Object.is(scores.rootScore, full.scores.rootScore)).toBe(true);
      }
    }
  });
});
