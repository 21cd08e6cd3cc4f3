import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import { parseGradedJson, preorder, recomputeScores } from "./graded-tree";
import { leaf, node, readGradingText } from "./grading-data.testutil";
import { applyOverrides } from "./recompute";
import { PyFloat, pythonJsonDumps } from "@/lib/rubric/python-json";
import { csvField, gradingLeavesCsv, LEAVES_CSV_COLUMNS, paperBenchTimestamp, serializeGradedTree } from "./serialize";

/** RFC 4180 reader for the tests: rows of fields. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  expect(field).toBe("");
  expect(row).toEqual([]);
  return rows;
}

const hasPython = spawnSync("python3", ["-c", "import json"], { stdio: "ignore" }).status === 0;

describe("pythonJsonDumps with PyFloat", () => {
  it("writes PyFloats as Python floats and other integral numbers as ints", () => {
    expect(pythonJsonDumps({ a: new PyFloat(1), b: 1, c: new PyFloat(0.1), d: [new PyFloat(1e-7)], e: "é" }, 2)).toBe(
      '{\n  "a": 1.0,\n  "b": 1,\n  "c": 0.1,\n  "d": [\n    1e-07\n  ],\n  "e": "\\u00e9"\n}',
    );
    expect(JSON.stringify({ x: new PyFloat(2) })).toBe('{"x":2}');
  });

  it.skipIf(!hasPython && process.env.CI !== "true")("is byte-identical to json.dumps for the same value", () => {
    const value = {
      s: 0.48152958152958153,
      i: 3,
      f: new PyFloat(3),
      z: new PyFloat(0),
      l: [],
      o: {},
      n: null,
      t: true,
      u: "\u2603\ud83d\ude00\n",
    };
    const python = spawnSync(
      "python3",
      [
        "-c",
        'import json; print(json.dumps({"s": 0.48152958152958153, "i": 3, "f": 3.0, "z": 0.0, "l": [], "o": {}, "n": None, "t": True, "u": "\\u2603\\U0001F600\\n"}, indent=4), end="")',
      ],
      { encoding: "utf8" },
    );
    expect(pythonJsonDumps(value, 4)).toBe(python.stdout);
  });
});

describe("gradingLeavesCsv", () => {
  const tree = recomputeScores(
    node("root", 1, [
      node("a", 3, [
        { ...leaf("a1", 1, 1), requirements: 'Uses "Adam", lr=0.1,\nthen SGD', explanation: "=SUM(A1)" },
        leaf("a2", 1, 0, "Code Execution", false),
      ]),
      {
        ...leaf("b", 1, 0, "Result Analysis"),
        finegrained_task_category: "Logging, Analysis & Presentation",
        explanation: "- bullet",
      },
    ]),
  );

  it("writes one quoted row per leaf with share, judge and final scores and the source", () => {
    const final = applyOverrides(tree, { b: 1 });
    const csv = gradingLeavesCsv(final, (leafNode) => ({
      judgeScore: leafNode.id === "b" ? 0 : leafNode.score,
      source: leafNode.id === "b" ? "human" : "judge",
    }));
    expect(csv.endsWith("\r\n")).toBe(true);
    const rows = readCsv(csv);
    expect(rows[0]).toEqual([...LEAVES_CSV_COLUMNS]);
    expect(rows.slice(1)).toEqual([
      [
        "a1",
        "sub_tasks[0].sub_tasks[0]",
        'Uses "Adam", lr=0.1,\nthen SGD',
        "Code Development",
        "",
        "1",
        String((3 / 4) * (1 / 2)),
        "true",
        "1",
        "1",
        "judge",
        "'=SUM(A1)",
      ],
      [
        "a2",
        "sub_tasks[0].sub_tasks[1]",
        "requirement a2",
        "Code Execution",
        "",
        "1",
        String((3 / 4) * (1 / 2)),
        "false",
        "0",
        "0",
        "judge",
        "",
      ],
      [
        "b",
        "sub_tasks[1]",
        "requirement b",
        "Result Analysis",
        "Logging, Analysis & Presentation",
        "1",
        "0.25",
        "true",
        "0",
        "1",
        "human",
        "'- bullet",
      ],
    ]);
  });

  it("quotes only what needs quoting", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField(" padded")).toBe('" padded"');
    expect(csvField("+1", true)).toBe("'+1");
    expect(csvField("+1")).toBe("+1");
    expect(csvField(null)).toBe("");
    expect(csvField(0.1)).toBe("0.1");
  });
});

describe.skipIf(skipWithoutData)("export of a reviewed human grading", () => {
  it("writes the human-adjusted scores, recomputed to the root, and reads back the same", () => {
    const parsed = parseGradedJson(readGradingText("all-in-one"));
    if (!parsed.ok) throw new Error("unreadable");
    const leaves = preorder(parsed.file.tree).filter((n) => n.sub_tasks.length === 0);
    const flipped = leaves.slice(0, 10).map((n) => [n.id, 1 - n.score] as const);
    const adjusted = applyOverrides(parsed.file.tree, new Map(flipped));
    const text = serializeGradedTree(adjusted);
    const back = parseGradedJson(text);
    expect(back.ok && back.warnings).toEqual([]);
    if (!back.ok) return;
    expect(Object.is(back.file.tree.score, adjusted.score)).toBe(true);
    expect(back.file.tree.score).not.toBe(parsed.file.tree.score);
    const rows = readCsv(gradingLeavesCsv(adjusted));
    expect(rows.length).toBe(leaves.length + 1);
    const shares = rows.slice(1).map((r) => Number(r[6]));
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});

describe("paperBenchTimestamp", () => {
  it("formats like PaperBench's get_timestamp", () => {
    expect(paperBenchTimestamp(new Date(Date.UTC(2025, 3, 1, 2, 3, 4)))).toBe("2025-04-01T02-03-04-GMT");
  });
});
