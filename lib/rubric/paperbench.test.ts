import { describe, expect, it } from "vitest";
import {
  blockingExportWarnings,
  formatIssue,
  lintPaperBenchRules,
  parseRubricJson,
  parseRubricValue,
  RUBRIC_LIMITS,
  rubricStats,
  serializeRubric,
  walkRubric,
  type ParseRubricResult,
} from "./paperbench";
import { utf8ByteLength } from "./json-text";
import { ALL_PAPERS, readPaperBuffer, readPaperText, readSplit, skipWithoutData } from "./paperbench-data.testutil";
import { pythonJsonDumps } from "./python-json";
import type { RubricNode, RubricWarning } from "./types";

// ---------------------------------------------------------------------------------------------
// helpers

const UUIDS = [
  "6f1f0a52-1a38-4b8e-9f3c-2d1b5e0f7a01",
  "0b2c9d4e-5f60-4718-8a9b-ac0d1e2f3a4b",
  "c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b",
  "d4e5f607-1829-4a3b-b4c5-d6e7f8091a2b",
  "e5f60718-293a-4b4c-85d6-e7f8091a2b3c",
  "f6071829-3a4b-4c5d-96e7-f8091a2b3c4d",
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function leaf(id: string, extra: Record<string, Json> = {}): Record<string, Json> {
  return {
    id,
    requirements: `Requirement of ${id}`,
    weight: 1,
    sub_tasks: [],
    task_category: "Code Development",
    finegrained_task_category: "Method Implementation",
    ...extra,
  };
}

function inner(id: string, subTasks: Json[], extra: Record<string, Json> = {}): Record<string, Json> {
  return {
    id,
    requirements: `Requirement of ${id}`,
    weight: 1,
    sub_tasks: subTasks,
    task_category: null,
    finegrained_task_category: null,
    ...extra,
  };
}

/** root → [leaf, leaf, inner → [leaf, leaf]]: a small valid PaperBench tree. */
function craftedTree(): Record<string, Json> {
  return inner(UUIDS[0], [leaf(UUIDS[1]), leaf(UUIDS[2]), inner(UUIDS[3], [leaf(UUIDS[4]), leaf(UUIDS[5])])]);
}

function at(tree: Record<string, Json>, ...indexes: number[]): Record<string, Json> {
  let node = tree;
  for (const i of indexes) node = (node.sub_tasks as Record<string, Json>[])[i];
  return node;
}

function refused(result: ParseRubricResult): string[] {
  if (result.ok) throw new Error("expected the input to be refused");
  expect(Object.keys(result).sort()).toEqual(["errors", "ok"]);
  return result.errors.map(formatIssue);
}

function accepted(result: ParseRubricResult): Extract<ParseRubricResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected the input to parse: ${result.errors.map(formatIssue)}`);
  return result;
}

function parseValue(value: Json): ParseRubricResult {
  return parseRubricJson(JSON.stringify(value, null, 2));
}

function countCodes(warnings: RubricWarning[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of warnings) counts[w.code] = (counts[w.code] ?? 0) + 1;
  return counts;
}

/** Deterministic shuffle of every object's keys (mulberry32). */
function shuffleKeys(value: unknown, seed = 42): unknown {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const go = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(go);
    if (v === null || typeof v !== "object") return v;
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [keys[i], keys[j]] = [keys[j], keys[i]];
    }
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = go((v as Record<string, unknown>)[k]);
    return out;
  };
  return go(value);
}

// ---------------------------------------------------------------------------------------------
// real rubrics

describe("real PaperBench rubrics (PAPERBENCH_DATA_DIR)", () => {
  it.skipIf(skipWithoutData)("the all split lists exactly the 20 papers", () => {
    expect(readSplit("all").sort()).toEqual([...ALL_PAPERS].sort());
  });

  it.skipIf(skipWithoutData).each(ALL_PAPERS)("%s: parse then serialize gives back the same bytes", (paper) => {
    const bytes = readPaperBuffer(paper, "rubric.json");
    const text = bytes.toString("utf8");
    const result = accepted(parseRubricJson(text));
    const out = serializeRubric(result.tree);
    expect(out.length).toBe(text.length);
    expect(out === text).toBe(true);
    expect(Buffer.from(out, "utf8").equals(bytes)).toBe(true);
    // The generic writer gives the same bytes on the parsed (canonical) tree.
    expect(pythonJsonDumps(result.tree) === text).toBe(true);
    expect(result.stats).toEqual(rubricStats(result.tree));
    // No real rubric breaks a blocking PaperBench rule (checked against the data with Python).
    expect(blockingExportWarnings(result.warnings)).toEqual([]);
  });

  it.skipIf(skipWithoutData)("counts 11,218 nodes and 8,316 leaves in all; pinn is the largest", () => {
    let nodes = 0;
    let leaves = 0;
    for (const paper of ALL_PAPERS) {
      const { stats } = accepted(parseRubricJson(readPaperText(paper, "rubric.json")));
      nodes += stats.nodes;
      leaves += stats.leaves;
    }
    expect({ nodes, leaves }).toEqual({ nodes: 11_218, leaves: 8_316 });
    const pinn = accepted(parseRubricJson(readPaperText("pinn", "rubric.json")));
    // depth counts levels: the README's "depth 8" counts edges below the root.
    expect(pinn.stats).toEqual({ nodes: 2_551, leaves: 1_963, depth: 9 });
  });

  it.skipIf(skipWithoutData)("warns (never refuses) on non-UUID and duplicate ids", () => {
    const expected: Record<string, Record<string, number>> = {
      bbox: { non_uuid_id: 397, duplicate_id: 3 },
      "bridging-data-gaps": { non_uuid_id: 44, duplicate_id: 3 },
      "test-time-model-adaptation": { non_uuid_id: 133 },
      // A few mistyped UUIDs elsewhere (counted with Python on the data).
      bam: { non_uuid_id: 22 },
      pinn: { non_uuid_id: 14 },
      rice: { non_uuid_id: 2 },
      sapg: { non_uuid_id: 1 },
      "stay-on-topic-with-classifier-free-guidance": { non_uuid_id: 2 },
    };
    for (const paper of ALL_PAPERS) {
      const result = accepted(parseRubricJson(readPaperText(paper, "rubric.json")));
      expect([paper, countCodes(result.warnings)]).toEqual([paper, expected[paper] ?? {}]);
    }
    const bbox = accepted(parseRubricJson(readPaperText("bbox", "rubric.json")));
    expect(bbox.warnings.find((w) => w.code === "non_uuid_id")).toEqual({
      code: "non_uuid_id",
      path: "id",
      nodeId: "root",
      message: 'id "root" is not a UUID',
    });
  });

  it.skipIf(skipWithoutData)("a duplicate id's warning names the first node with that id", () => {
    for (const paper of ["bbox", "bridging-data-gaps"]) {
      const { tree, warnings } = accepted(parseRubricJson(readPaperText(paper, "rubric.json")));
      const firstPath = new Map<string, string>();
      walkRubric(tree, (node, path) => {
        if (!firstPath.has(node.id)) firstPath.set(node.id, path);
      });
      const duplicates = warnings.filter((w) => w.code === "duplicate_id");
      expect(duplicates).toHaveLength(3);
      for (const w of duplicates) {
        const first = firstPath.get(w.nodeId)!;
        expect(w.message).toContain(`the node at ${first}`);
        expect(`${first}.id`).not.toBe(w.path); // a later occurrence
      }
    }
  });

  it.skipIf(skipWithoutData)("keys in any order in the source still export the canonical bytes", () => {
    for (const paper of ["pinn", "bbox", "all-in-one"]) {
      const text = readPaperText(paper, "rubric.json");
      const shuffled = shuffleKeys(JSON.parse(text), paper.length);
      for (const source of [JSON.stringify(shuffled), JSON.stringify(shuffled, null, "\t")]) {
        expect(source).not.toBe(text);
        const result = accepted(parseRubricJson(source));
        expect(serializeRubric(result.tree) === text).toBe(true);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// refused inputs

describe("parseRubricJson refuses", () => {
  it("text that is not JSON, with the line and column of the error", () => {
    const text = '{\n  "id": "a",\n  "requirements": "x"\n  "weight": 1\n}';
    expect(refused(parseRubricJson(text))).toEqual(["(root): not valid JSON: comma expected at line 4, column 3"]);
    expect(refused(parseRubricJson(""))).toEqual(["(root): not valid JSON: value expected at line 1, column 1"]);
    expect(refused(parseRubricJson('{"id": "a",}'))).toEqual([
      "(root): not valid JSON: property name expected at line 1, column 12",
    ]);
    expect(refused(parseRubricJson("[1,\n2"))).toEqual([
      "(root): not valid JSON: close bracket expected at line 2, column 2",
    ]);
    expect(refused(parseRubricJson("{\n// comment\n}"))[0]).toMatch(/at line 2, column 1$/);
    expect(refused(parseRubricJson('{"a": "\t"}'))[0]).toMatch(/invalid character at line 1, column 7$/);
  });

  it("a root that is not an object", () => {
    expect(refused(parseRubricJson("[]"))).toEqual(["(root): must be an object, got an array"]);
    expect(refused(parseRubricJson("null"))).toEqual(["(root): must be an object, got null"]);
    expect(refused(parseRubricJson('"rubric"'))).toEqual(["(root): must be an object, got a string"]);
  });

  it("a sub-task that is not an object", () => {
    const tree = craftedTree();
    (at(tree, 2).sub_tasks as Json[])[1] = "leaf";
    expect(refused(parseValue(tree))).toEqual(["sub_tasks[2].sub_tasks[1]: must be an object, got a string"]);
  });

  it("a missing id, at its would-be path", () => {
    const tree = craftedTree();
    delete at(tree, 1).id;
    expect(refused(parseValue(tree))).toEqual(["sub_tasks[1].id: is required"]);
  });

  it("every missing required key", () => {
    expect(refused(parseRubricJson("{}"))).toEqual([
      "id: is required",
      "requirements: is required",
      "weight: is required",
      "sub_tasks: is required",
    ]);
  });

  it("an id or requirements that is not a string", () => {
    const tree = craftedTree();
    at(tree, 0).requirements = 7;
    at(tree, 2, 1).id = 12;
    expect(refused(parseValue(tree))).toEqual([
      "sub_tasks[0].requirements: must be a string, got a number",
      "sub_tasks[2].sub_tasks[1].id: must be a string, got a number",
    ]);
  });

  it("a weight given as a string", () => {
    const tree = craftedTree();
    at(tree, 0).weight = "2";
    expect(refused(parseValue(tree))).toEqual(["sub_tasks[0].weight: must be a number >= 0, got a string"]);
  });

  it("a negative weight", () => {
    const tree = craftedTree();
    at(tree, 2, 0).weight = -1;
    const result = parseValue(tree);
    expect(refused(result)).toEqual(["sub_tasks[2].sub_tasks[0].weight: must be a number >= 0, got -1"]);
    expect(!result.ok && result.errors).toEqual([
      { path: "sub_tasks[2].sub_tasks[0].weight", message: "must be a number >= 0, got -1" },
    ]);
  });

  it("weights that are null, booleans or not finite", () => {
    const got = { null: "null", true: "a boolean", "1e999": "Infinity", "-1e999": "-Infinity", "[1]": "an array" };
    for (const [bad, described] of Object.entries(got)) {
      const text = JSON.stringify(craftedTree()).replace('"weight":1', `"weight":${bad}`);
      expect(refused(parseRubricJson(text))).toEqual([`weight: must be a number >= 0, got ${described}`]);
    }
  });

  it("sub_tasks that is not an array", () => {
    const tree = craftedTree();
    at(tree, 1).sub_tasks = {};
    expect(refused(parseValue(tree))).toEqual(["sub_tasks[1].sub_tasks: must be an array, got an object"]);
  });

  it("a category that is neither null nor a string", () => {
    const tree = craftedTree();
    at(tree, 0).task_category = 3;
    at(tree, 2).finegrained_task_category = ["Method Implementation"];
    expect(refused(parseValue(tree))).toEqual([
      "sub_tasks[0].task_category: must be null or a string, got a number",
      "sub_tasks[2].finegrained_task_category: must be null or a string, got an array",
    ]);
  });

  it("several problems at once, up to 50", () => {
    const tree = craftedTree();
    at(tree, 0).weight = -1;
    delete at(tree, 1).requirements;
    at(tree, 2, 1).sub_tasks = null;
    expect(refused(parseValue(tree))).toEqual([
      "sub_tasks[0].weight: must be a number >= 0, got -1",
      "sub_tasks[1].requirements: is required",
      "sub_tasks[2].sub_tasks[1].sub_tasks: must be an array, got null",
    ]);

    const many = inner(
      UUIDS[0],
      Array.from({ length: 200 }, (_, i) => leaf(`n${i}`, { weight: -i - 1 })),
    );
    const errors = refused(parseValue(many));
    expect(errors).toHaveLength(50);
    expect(errors[49]).toBe("sub_tasks[49].weight: must be a number >= 0, got -50");
  });

  it("a file over the size limit, with its size and the limit", () => {
    const padding = "x".repeat(RUBRIC_LIMITS.maxBytes);
    const text = JSON.stringify(leaf(UUIDS[0], { requirements: padding }));
    const bytes = Buffer.byteLength(text, "utf8");
    expect(refused(parseRubricJson(text))).toEqual([
      `(root): the file is ${bytes.toLocaleString("en-US")} bytes (10.0 MiB); ` +
        "the limit is 10,485,760 bytes (10 MiB)",
    ]);
  });

  it("counts the size in UTF-8 bytes, not characters", () => {
    const limits = { ...RUBRIC_LIMITS, maxBytes: 300 };
    const text = JSON.stringify(leaf(UUIDS[0], { requirements: "é".repeat(100) }));
    expect(text.length).toBeLessThan(300);
    expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, "utf8"));
    expect(utf8ByteLength(text)).toBeGreaterThan(300);
    expect(refused(parseRubricJson(text, limits))[0]).toMatch(/^\(root\): the file is 3\d\d bytes/);
    for (const s of ["😀", "\ud800", "\udc00x", "a\u07ff\u0800\uffff"]) {
      expect(utf8ByteLength(s)).toBe(Buffer.byteLength(s, "utf8"));
    }
  });

  it("a tree deeper than the limit", () => {
    const chain = (levels: number): Record<string, Json> => {
      let node = leaf("bottom");
      for (let i = levels - 1; i > 0; i--) node = inner(`level-${i}`, [node]);
      return node;
    };
    expect(accepted(parseValue(chain(RUBRIC_LIMITS.maxDepth))).stats.depth).toBe(64);
    const path = Array.from({ length: 64 }, () => "sub_tasks[0]").join(".");
    expect(refused(parseValue(chain(RUBRIC_LIMITS.maxDepth + 1)))).toEqual([
      `${path}: is nested deeper than the limit of 64 levels`,
    ]);
    // Absurd nesting is refused cleanly, not with a stack overflow.
    const levels = 100_000;
    const open = '{"id":"x","requirements":"","weight":1,"sub_tasks":[';
    const absurd = open.repeat(levels) + "]}".repeat(levels);
    expect(refused(parseRubricJson(absurd))).toEqual([`${path}: is nested deeper than the limit of 64 levels`]);
    // ...even when the nesting is elsewhere, or the text is broken.
    expect(refused(parseRubricJson("[".repeat(levels)))[0]).toMatch(
      /^\(root\): not valid JSON: .*line 1, column 100001\)?$/,
    );
    const deepId = JSON.stringify(leaf(UUIDS[0])).replace(`"${UUIDS[0]}"`, "[".repeat(levels) + "]".repeat(levels));
    expect(refused(parseRubricJson(deepId))).toEqual(["id: must be a string, got an array"]);
  });

  it("more nodes than the limit", () => {
    const wide = (children: number): Record<string, Json> =>
      inner(
        UUIDS[0],
        Array.from({ length: children }, () => leaf(UUIDS[1])),
      );
    // Validated as values: 50k nodes of JSON text would also hit the size limit.
    expect(accepted(parseRubricValue(wide(RUBRIC_LIMITS.maxNodes - 1))).stats.nodes).toBe(50_000);
    expect(refused(parseRubricValue(wide(RUBRIC_LIMITS.maxNodes)))).toEqual([
      "(root): the tree has more than 50000 nodes, the limit",
    ]);
  });

  it("a requirements text longer than the limit", () => {
    const long = "y".repeat(RUBRIC_LIMITS.maxRequirementsLength + 1);
    const tree = craftedTree();
    at(tree, 1).requirements = long;
    expect(refused(parseValue(tree))).toEqual([
      "sub_tasks[1].requirements: is 100001 characters long; the limit is 100000",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// accepted inputs and warnings

describe("parseRubricJson accepts", () => {
  it("a valid tree without warnings, and serializes it like Python", () => {
    const result = accepted(parseValue(craftedTree()));
    expect(result.warnings).toEqual([]);
    expect(result.stats).toEqual({ nodes: 6, leaves: 4, depth: 3 });
    const out = serializeRubric(result.tree);
    expect(out).toBe(pythonJsonDumps(craftedTree()));
    expect(out.startsWith('{\n    "id": "6f1f0a52-1a38-4b8e-9f3c-2d1b5e0f7a01",\n    "requirements"')).toBe(true);
    expect(out.endsWith('\n    "finegrained_task_category": null\n}')).toBe(true);
  });

  it("missing categories as null (PaperBench reads them with data.get)", () => {
    const text = JSON.stringify({ id: UUIDS[0], requirements: "r", weight: 2, sub_tasks: [] });
    const result = accepted(parseRubricJson(text));
    expect(result.tree).toEqual({
      id: UUIDS[0],
      requirements: "r",
      weight: 2,
      sub_tasks: [],
      task_category: null,
      finegrained_task_category: null,
    });
    expect(result.warnings.map((w) => w.code)).toEqual(["leaf_without_category"]);
    expect(serializeRubric(result.tree)).toBe(
      `{\n    "id": "${UUIDS[0]}",\n    "requirements": "r",\n    "weight": 2,\n    "sub_tasks": [],\n` +
        '    "task_category": null,\n    "finegrained_task_category": null\n}',
    );
  });

  it("unknown keys, dropped with a warning", () => {
    const tree = craftedTree();
    tree.score = 1;
    at(tree, 2, 0)["my note"] = "x";
    const result = accepted(parseValue(tree));
    expect(result.warnings).toEqual([
      { code: "unknown_key", path: "score", nodeId: UUIDS[0], message: 'unknown key "score" was dropped' },
      {
        code: "unknown_key",
        path: 'sub_tasks[2].sub_tasks[0]["my note"]',
        nodeId: UUIDS[4],
        message: 'unknown key "my note" was dropped',
      },
    ]);
    expect(blockingExportWarnings(result.warnings)).toEqual([]);
    expect(serializeRubric(result.tree)).toBe(pythonJsonDumps(craftedTree()));
  });

  it("a leading byte-order mark", () => {
    accepted(parseRubricJson("\ufeff" + JSON.stringify(craftedTree())));
  });

  it("fractional and zero weights, written like Python floats", () => {
    const tree = craftedTree();
    at(tree, 0).weight = 0.5;
    at(tree, 1).weight = 0;
    at(tree, 2).weight = 2.0;
    const out = serializeRubric(accepted(parseValue(tree)).tree);
    expect(out).toContain('"weight": 0.5,');
    expect(out).toContain('"weight": 0,');
    expect(out).toContain('"weight": 2,');
  });

  it("parseRubricValue validates an already parsed value", () => {
    expect(accepted(parseRubricValue(craftedTree())).stats.nodes).toBe(6);
    expect(parseRubricValue(undefined)).toEqual({
      ok: false,
      errors: [{ path: "(root)", message: "must be an object, got undefined" }],
    });
  });
});

describe("lintPaperBenchRules", () => {
  const lint = (tree: Record<string, Json>) => lintPaperBenchRules(accepted(parseValue(tree)).tree);

  it("warns on every PaperBench rule break, at the field's path", () => {
    const tree = craftedTree();
    at(tree, 0).task_category = null; // leaf without category
    at(tree, 2).task_category = "Code Development"; // internal with category
    at(tree, 1).task_category = "Subtree"; // judge-internal, not a rubric category
    at(tree, 2, 0).finegrained_task_category = "Vibes";
    at(tree, 2, 1).id = "not-a-uuid";
    at(tree, 1).id = UUIDS[1]; // duplicate of sub_tasks[0]
    const warnings = lint(tree);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([
      ["leaf_without_category", "sub_tasks[0].task_category"],
      ["duplicate_id", "sub_tasks[1].id"],
      ["unknown_category", "sub_tasks[1].task_category"],
      ["internal_with_category", "sub_tasks[2].task_category"],
      ["unknown_finegrained_category", "sub_tasks[2].sub_tasks[0].finegrained_task_category"],
      ["non_uuid_id", "sub_tasks[2].sub_tasks[1].id"],
    ]);
    expect(warnings[1].message).toBe(
      `id "${UUIDS[1]}" is already used by the node at sub_tasks[0]; a lookup by id finds that one`,
    );
    expect(warnings[1].nodeId).toBe(UUIDS[1]);
    expect(blockingExportWarnings(warnings).map((w) => w.code)).toEqual([
      "leaf_without_category",
      "unknown_category",
      "internal_with_category",
      "unknown_finegrained_category",
    ]);
  });

  it("accepts UUIDs in either case", () => {
    const tree = craftedTree();
    at(tree, 0).id = UUIDS[1].toUpperCase();
    expect(lint(tree)).toEqual([]);
  });
});

describe("walkRubric and rubricStats", () => {
  it("walks depth-first in file order with paths, depths and parents", () => {
    const tree = accepted(parseValue(craftedTree())).tree;
    const seen: [string, string, number, string | null][] = [];
    walkRubric(tree, (node, path, depth, parent) => seen.push([node.id, path, depth, parent?.id ?? null]));
    expect(seen).toEqual([
      [UUIDS[0], "(root)", 1, null],
      [UUIDS[1], "sub_tasks[0]", 2, UUIDS[0]],
      [UUIDS[2], "sub_tasks[1]", 2, UUIDS[0]],
      [UUIDS[3], "sub_tasks[2]", 2, UUIDS[0]],
      [UUIDS[4], "sub_tasks[2].sub_tasks[0]", 3, UUIDS[3]],
      [UUIDS[5], "sub_tasks[2].sub_tasks[1]", 3, UUIDS[3]],
    ]);
  });

  it("a root alone has depth 1", () => {
    const root: RubricNode = {
      id: UUIDS[0],
      requirements: "",
      weight: 1,
      sub_tasks: [],
      task_category: "Code Execution",
      finegrained_task_category: null,
    };
    expect(rubricStats(root)).toEqual({ nodes: 1, leaves: 1, depth: 1 });
  });
});
