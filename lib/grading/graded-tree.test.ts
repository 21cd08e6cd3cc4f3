import { describe, expect, it } from "vitest";
import { skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import {
  findGradedNode,
  gradedShares,
  gradedStats,
  parseGradedJson,
  parseGradedValue,
  preorder,
  preorderPaths,
  recomputeScores,
  toRubricTree,
  ungradedTree,
} from "./graded-tree";
import { HUMAN_GRADINGS, leaf, node, readGradingText } from "./grading-data.testutil";
import { serializeGradedTree, serializeJudgeOutput } from "./serialize";
import type { GradedNode } from "./types";

interface RawNode {
  score: number;
  weight: number;
  sub_tasks: RawNode[];
}

function parseOk(text: string) {
  const result = parseGradedJson(text);
  if (!result.ok) throw new Error(result.errors.map((e) => `${e.path}: ${e.message}`).join("\n"));
  return result;
}

describe.skipIf(skipWithoutData)("the shipped human gradings", () => {
  for (const [paper, expectedRoot] of Object.entries(HUMAN_GRADINGS)) {
    describe(paper, () => {
      const text = readGradingText(paper);
      const raw = JSON.parse(text) as RawNode;

      it("imports with the root score equal to the file's to the last bit", () => {
        const { file, warnings } = parseOk(text);
        expect(file.kind).toBe("graded_tree");
        expect(file.judgeOutput).toBeNull();
        expect(Object.is(file.tree.score, raw.score)).toBe(true);
        expect(Object.is(file.tree.score, expectedRoot)).toBe(true);
        expect(file.fileRootScore).toBe(raw.score);
        expect(file.rootMatchesFile).toBe(true);
        expect(warnings).toEqual([]);
      });

      it("recomputes every internal node to exactly the file's score", () => {
        const { file } = parseOk(text);
        let internal = 0;
        const compare = (ours: GradedNode, theirs: RawNode) => {
          expect(ours.sub_tasks.length).toBe(theirs.sub_tasks.length);
          if (ours.sub_tasks.length > 0) {
            internal++;
            if (!Object.is(ours.score, theirs.score)) throw new Error(`${ours.id}: ${ours.score} !== ${theirs.score}`);
          }
          ours.sub_tasks.forEach((kid, i) => compare(kid, theirs.sub_tasks[i]));
        };
        compare(file.tree, raw);
        expect(internal).toBeGreaterThan(30);
        // And from scratch: a tree whose internal scores are all wrong comes back the same.
        const scrambled = structuredClone(file.tree);
        for (const n of preorder(scrambled)) if (n.sub_tasks.length > 0) n.score = 0.123;
        expect(Object.is(recomputeScores(scrambled).score, expectedRoot)).toBe(true);
      });

      it("is not what Python 3.12's compensated sum would give (PaperBench's order is plain left to right)", () => {
        // Neumaier summation, as Python >= 3.12's sum() of floats.
        const neumaier = (xs: number[]) => {
          let s = 0;
          let c = 0;
          for (const x of xs) {
            const t = s + x;
            c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
            s = t;
          }
          return c && Number.isFinite(c) ? s + c : s;
        };
        let mismatches = 0;
        const visit = (n: RawNode) => {
          if (n.sub_tasks.length === 0) return;
          n.sub_tasks.forEach(visit);
          const total = neumaier(n.sub_tasks.map((k) => k.weight));
          const score = total === 0 ? 0 : neumaier(n.sub_tasks.map((k) => k.score * k.weight)) / total;
          if (!Object.is(score, n.score)) mismatches++;
        };
        visit(raw);
        // all-in-one happens to agree either way; the two others do not.
        if (paper !== "all-in-one") expect(mismatches).toBeGreaterThan(0);
      });

      it("exports a tree whose scores and fields equal the input's, byte for byte", () => {
        const { file } = parseOk(text);
        const exported = serializeGradedTree(file.tree);
        // PaperBench's json.dump writes no trailing newline; two of the files got one by hand.
        expect(exported).toBe(text.replace(/\n$/, ""));
        const again = parseOk(exported).file.tree;
        const a = preorder(file.tree);
        const b = preorder(again);
        expect(b.length).toBe(a.length);
        for (let i = 0; i < a.length; i++) {
          expect(Object.is(b[i].score, a[i].score)).toBe(true);
          expect(b[i].valid_score).toBe(a[i].valid_score);
        }
      });

      it("round-trips through a judge-output wrapper", () => {
        const { file } = parseOk(text);
        const wrapped = serializeJudgeOutput(file.tree, { judgeType: "human", gradedAt: "2025-01-01T00-00-00-GMT" });
        const back = parseOk(wrapped);
        expect(back.warnings).toEqual([]);
        expect(back.file.kind).toBe("judge_output");
        expect(back.file.judgeOutput).toMatchObject({
          judge_type: "human",
          score: expectedRoot,
          num_leaf_nodes: file.stats.leaves,
          num_invalid_leaf_nodes: 0,
          graded_at: "2025-01-01T00-00-00-GMT",
        });
        expect(Object.is(back.file.tree.score, expectedRoot)).toBe(true);
        expect(serializeGradedTree(back.file.tree)).toBe(serializeGradedTree(file.tree));
      });
    });
  }

  it("reads pinn's numeric valid_score (1.0) as valid, and writes it back as 1.0", () => {
    const text = readGradingText("pinn");
    const { file } = parseOk(text);
    const numeric = preorder(file.tree).filter((n) => n.file?.validScoreNumber !== undefined);
    expect(numeric.length).toBe(362);
    expect(numeric.every((n) => n.valid_score)).toBe(true);
    expect(serializeGradedTree(file.tree)).toContain('"valid_score": 1.0,');
    expect(file.stats).toEqual({ nodes: 2551, leaves: 1963, invalidLeaves: 0, depth: 9 });
  });
});

describe("the weighted mean of a node's children", () => {
  const scoreFromChildren = (kids: GradedNode[]) => recomputeScores(node("parent", 1, kids)).score;

  it("is Σ w·s / Σ w, left to right, and 0 when the weights sum to 0", () => {
    const kids = [leaf("a", 1, 1), leaf("b", 2, 0), leaf("c", 3, 1)];
    expect(scoreFromChildren(kids)).toBe((0 + 1 * 1 + 0 * 2 + 1 * 3) / 6);
    expect(scoreFromChildren([leaf("a", 0, 1), leaf("b", 0, 1)])).toBe(0);
    // 0.1·1 + 0.2·1 + 0.3·1 in that order, over 0.1 + 0.2 + 0.3 in that order.
    const floats = [leaf("a", 0.1, 1), leaf("b", 0.2, 1), leaf("c", 0.3, 1)];
    expect(scoreFromChildren(floats)).toBe((0.1 + 0.2 + 0.3) / (0.1 + 0.2 + 0.3));
  });

  it("counts an invalid leaf as 0 whatever its score", () => {
    expect(scoreFromChildren([leaf("a", 1, 1, "Code Development", false), leaf("b", 1, 1)])).toBe(0.5);
  });
});

describe("parseGradedJson", () => {
  const tree = node("root", 1, [
    node("n1", 2, [leaf("l1", 1, 1), leaf("l2", 3, 0)]),
    leaf("l3", 1, 1, "Result Analysis"),
  ]);
  const text = serializeGradedTree(recomputeScores(tree));

  it("refuses malformed files with the JSON path of every problem, building nothing", () => {
    const bad = JSON.parse(text);
    bad.sub_tasks[0].sub_tasks[1].score = "1";
    bad.sub_tasks[1].weight = -1;
    delete bad.sub_tasks[0].explanation;
    bad.sub_tasks[1].valid_score = "yes";
    const result = parseGradedValue(bad);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      "sub_tasks[0].explanation: is required",
      "sub_tasks[0].sub_tasks[1].score: must be a number, got a string",
      "sub_tasks[1].weight: must be a number >= 0, got -1",
      "sub_tasks[1].valid_score: must be a boolean, got a string",
    ]);
  });

  it("names paths inside a judge output's graded_task_tree", () => {
    const wrapped = JSON.parse(serializeJudgeOutput(recomputeScores(tree), { gradedAt: "x" }));
    wrapped.graded_task_tree.sub_tasks[1].score = null;
    wrapped.num_leaf_nodes = 2.5;
    const result = parseGradedValue(wrapped);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      "num_leaf_nodes: must be a whole number >= 0, got 2.5",
      "graded_task_tree.sub_tasks[1].score: must be a number, got null",
    ]);
  });

  it("refuses non-JSON with line and column, non-objects, scores out of [0, 1], and files over the limits", () => {
    const notJson = parseGradedJson('{"id": "x",\n  "score": }');
    expect(notJson.ok).toBe(false);
    if (!notJson.ok) expect(notJson.errors[0].message).toMatch(/^not valid JSON: value expected at line 2, column 12/);
    const array = parseGradedJson("[]");
    expect(!array.ok && array.errors[0]).toEqual({
      path: "(root)",
      message: "must be an object (a graded tree or a judge output), got an array",
    });
    const over = JSON.parse(text);
    over.sub_tasks[1].score = 1.5;
    const range = parseGradedValue(over);
    expect(!range.ok && range.errors[0].message).toBe("must be a number between 0 and 1, got 1.5");
    const big = parseGradedJson(text, {
      maxBytes: 100,
      maxNodes: 10,
      maxDepth: 10,
      maxRequirementsLength: 10,
      maxExplanationLength: 10,
    });
    expect(!big.ok && big.errors[0].message).toMatch(/the limit is 100 bytes/);
    const deep = parseGradedJson(text, {
      maxBytes: 1e6,
      maxNodes: 3,
      maxDepth: 10,
      maxRequirementsLength: 100,
      maxExplanationLength: 100,
    });
    expect(!deep.ok && deep.errors[0].message).toBe("the tree has more than 3 nodes, the limit");
  });

  it("recomputes internal scores and warns where the file's differ; warns on odd but readable input", () => {
    const odd = JSON.parse(text);
    odd.score = 0.99; // root written wrong
    odd.sub_tasks[1].valid_score = false; // an invalid leaf with score 1: counts 0
    odd.sub_tasks[0].extra_key = 1;
    odd.sub_tasks[0].sub_tasks[1].id = "l1"; // duplicate id
    const result = parseGradedValue(odd);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // n1 = (1·1 + 0·3)/4 = 0.25; root = (0.25·2 + 0·1)/3
    expect(result.file.tree.score).toBe((0 + 0.25 * 2 + 0 * 1) / 3);
    expect(result.file.fileRootScore).toBe(0.99);
    expect(result.file.rootMatchesFile).toBe(false);
    expect(result.warnings.map((w) => [w.code, w.path])).toEqual([
      ["unknown_key", "sub_tasks[0].extra_key"],
      ["duplicate_id", "sub_tasks[0].sub_tasks[1]"],
      ["invalid_leaf_scored", "sub_tasks[1].score"],
      ["score_mismatch", "score"],
    ]);
    expect(result.file.stats).toEqual({ nodes: 5, leaves: 3, invalidLeaves: 1, depth: 3 });
  });

  it("reads a judge output: wrapper fields, unknown keys kept in order, counts checked", () => {
    const wrapped = JSON.parse(serializeJudgeOutput(recomputeScores(tree), { judgeType: "simple", gradedAt: "t" }));
    wrapped.completer_config = { model: "o3-mini" };
    wrapped.run_note = { kept: [1, 2] };
    wrapped.num_invalid_leaf_nodes = 2;
    const result = parseGradedValue(wrapped);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const meta = result.file.judgeOutput!;
    expect(meta.judge_type).toBe("simple");
    expect(meta.completer_config).toEqual({ model: "o3-mini" });
    expect(meta.extra).toEqual({ run_note: { kept: [1, 2] } });
    expect(meta.keyOrder).toEqual([...Object.keys(wrapped)]);
    expect(result.warnings.map((w) => w.code)).toEqual(["wrapper_count_mismatch"]);
    const out = JSON.parse(serializeJudgeOutput(result.file.tree, { meta }));
    expect(Object.keys(out)).toEqual(meta.keyOrder);
    expect(out.run_note).toEqual({ kept: [1, 2] });
    expect(out.num_invalid_leaf_nodes).toBe(0); // recounted from the tree
  });
});

describe("tree helpers", () => {
  const tree = recomputeScores(
    node("root", 1, [
      node("a", 1, [leaf("a1", 1, 1), leaf("a2", 3, 0)]),
      node("b", 3, [leaf("b1", 1, 1)]),
      leaf("c", 0, 1),
    ]),
  );

  it("gives pre-order nodes and paths, first match by id, stats", () => {
    expect(preorder(tree).map((n) => n.id)).toEqual(["root", "a", "a1", "a2", "b", "b1", "c"]);
    expect(preorderPaths(tree)).toEqual([
      "(root)",
      "sub_tasks[0]",
      "sub_tasks[0].sub_tasks[0]",
      "sub_tasks[0].sub_tasks[1]",
      "sub_tasks[1]",
      "sub_tasks[1].sub_tasks[0]",
      "sub_tasks[2]",
    ]);
    expect(findGradedNode(tree, "b1")?.id).toBe("b1");
    expect(findGradedNode(tree, "zz")).toBeNull();
    expect(gradedStats(tree)).toEqual({ nodes: 7, leaves: 4, invalidLeaves: 0, depth: 3 });
  });

  it("computes effective shares: the product of weight / Σ sibling weights along the path", () => {
    // root children weights 1, 3, 0 (Σ 4); a's children 1, 3 (Σ 4).
    expect(gradedShares(tree)).toEqual([1, 1 / 4, (1 / 4) * (1 / 4), (1 / 4) * (3 / 4), 3 / 4, 3 / 4, 0]);
  });

  it("converts to and from a rubric", () => {
    const rubric = toRubricTree(tree);
    expect(rubric.sub_tasks[0].sub_tasks[1]).toEqual({
      id: "a2",
      requirements: "requirement a2",
      weight: 3,
      sub_tasks: [],
      task_category: "Code Development",
      finegrained_task_category: null,
    });
    const blank = ungradedTree(rubric);
    expect(blank.sub_tasks[0].sub_tasks[1]).toMatchObject({
      score: 0,
      valid_score: false,
      explanation: "not yet graded",
    });
    expect(recomputeScores(blank).score).toBe(0);
  });
});
