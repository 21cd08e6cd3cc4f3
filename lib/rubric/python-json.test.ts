import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { serializeRubric } from "./paperbench";
import { pythonFloatRepr, pythonJsonDumps, pythonJsonString, pythonNumber } from "./python-json";
import { FINEGRAINED_TASK_CATEGORIES, TASK_CATEGORIES, type RubricNode } from "./types";
import { propertyParams } from "@/test/property";

// ---------------------------------------------------------------------------------------------
// Python, when there is one (in CI there must be: the comparison tests then fail without it).

const hasPython = spawnSync("python3", ["-c", "import json"], { stdio: "ignore" }).status === 0;
const skipWithoutPython = !hasPython && process.env.CI !== "true";

/** One python3 call: `json.dumps(json.loads(text), indent=4)` for each JSON text. */
function pythonDumpsMany(jsonTexts: string[]): string[] {
  return runPython("out = [json.dumps(json.loads(t), indent=4) for t in data]", jsonTexts);
}

/** One python3 call: `repr(float(s))` for each string. */
function pythonFloatReprMany(numbers: string[]): string[] {
  return runPython("out = [repr(float(s)) for s in data]", numbers);
}

function runPython(body: string, data: string[]): string[] {
  const script = [
    "import json, sys",
    "data = json.loads(sys.stdin.buffer.read().decode('utf-8'))",
    body,
    "sys.stdout.write(json.dumps(out))",
  ].join("\n");
  const run = spawnSync("python3", ["-c", script], {
    input: JSON.stringify(data),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.error ?? run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

// ---------------------------------------------------------------------------------------------
// unit cases

describe("pythonJsonString", () => {
  it("leaves printable ASCII alone and escapes like Python's ensure_ascii", () => {
    expect(pythonJsonString("plain text / 100% ~")).toBe('"plain text / 100% ~"');
    expect(pythonJsonString("é")).toBe('"\\u00e9"');
    expect(pythonJsonString("naïve café")).toBe('"na\\u00efve caf\\u00e9"');
    expect(pythonJsonString("😀")).toBe('"\\ud83d\\ude00"');
    expect(pythonJsonString("∑ε\u2028")).toBe('"\\u2211\\u03b5\\u2028"');
    expect(pythonJsonString("\ufeff\uffff")).toBe('"\\ufeff\\uffff"');
    expect(pythonJsonString("\ud800 lone \udfff")).toBe('"\\ud800 lone \\udfff"');
  });

  it("escapes quotes, backslashes and control characters", () => {
    expect(pythonJsonString('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"');
    expect(pythonJsonString("\b\f\n\r\t")).toBe('"\\b\\f\\n\\r\\t"');
    expect(pythonJsonString("\u0000\u0001\u000b\u001f")).toBe('"\\u0000\\u0001\\u000b\\u001f"');
    expect(pythonJsonString("\u007f")).toBe('"\\u007f"');
    expect(pythonJsonString("a\u0080b")).toBe('"a\\u0080b"');
    expect(pythonJsonString("")).toBe('""');
  });
});

describe("pythonNumber and pythonFloatRepr", () => {
  it("writes integral numbers as Python ints, never with an exponent", () => {
    expect(pythonNumber(2.0)).toBe("2");
    expect(pythonNumber(0)).toBe("0");
    expect(pythonNumber(-0)).toBe("0");
    expect(pythonNumber(-5)).toBe("-5");
    expect(pythonNumber(1e16)).toBe("10000000000000000");
    expect(pythonNumber(1.5e16)).toBe("15000000000000000");
    expect(pythonNumber(2 ** 53 + 2)).toBe("9007199254740994");
    expect(pythonNumber(1e21)).toBe("1000000000000000000000");
    expect(pythonNumber(1e23)).toBe("100000000000000000000000");
    expect(pythonNumber(-1.25e22)).toBe("-12500000000000000000000");
    expect(pythonNumber(Number.MAX_VALUE)).toBe("17976931348623157" + "0".repeat(292));
  });

  it("writes other numbers like Python's float repr", () => {
    expect(pythonNumber(0.1)).toBe("0.1");
    expect(pythonNumber(0.5)).toBe("0.5");
    expect(pythonNumber(-2.5)).toBe("-2.5");
    expect(pythonNumber(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(pythonNumber(1 / 3)).toBe("0.3333333333333333");
    expect(pythonNumber(123.456)).toBe("123.456");
    expect(pythonNumber(0.0001)).toBe("0.0001");
    expect(pythonNumber(0.00015)).toBe("0.00015");
    expect(pythonNumber(1e-5)).toBe("1e-05");
    expect(pythonNumber(1.5e-7)).toBe("1.5e-07");
    expect(pythonNumber(1.234e-100)).toBe("1.234e-100");
    expect(pythonNumber(5e-324)).toBe("5e-324");
    expect(pythonNumber(2 ** 51 + 0.5)).toBe("2251799813685248.5");
  });

  it("formats any double like repr(float), exponent from 1e16 on", () => {
    expect(pythonFloatRepr(2)).toBe("2.0");
    expect(pythonFloatRepr(0)).toBe("0.0");
    expect(pythonFloatRepr(-0)).toBe("-0.0");
    expect(pythonFloatRepr(1e15)).toBe("1000000000000000.0");
    expect(pythonFloatRepr(1e16)).toBe("1e+16");
    expect(pythonFloatRepr(1.5e16)).toBe("1.5e+16");
    expect(pythonFloatRepr(-1.5e300)).toBe("-1.5e+300");
    expect(pythonFloatRepr(1e-5)).toBe("1e-05");
  });

  it("refuses NaN and infinities", () => {
    expect(() => pythonNumber(NaN)).toThrow(TypeError);
    expect(() => pythonNumber(Infinity)).toThrow(TypeError);
    expect(() => pythonJsonDumps({ w: -Infinity })).toThrow(TypeError);
  });
});

describe("pythonJsonDumps", () => {
  it("indents like json.dumps(indent=4), with empty containers inline", () => {
    const value = { a: [], b: {}, c: [[], {}, [1, [2]]], d: { e: null, f: true, g: false } };
    expect(pythonJsonDumps(value)).toBe(
      [
        "{",
        '    "a": [],',
        '    "b": {},',
        '    "c": [',
        "        [],",
        "        {},",
        "        [",
        "            1,",
        "            [",
        "                2",
        "            ]",
        "        ]",
        "    ],",
        '    "d": {',
        '        "e": null,',
        '        "f": true,',
        '        "g": false',
        "    }",
        "}",
      ].join("\n"),
    );
  });

  it("writes scalars at the top level, other indents, and escaped keys", () => {
    expect(pythonJsonDumps(null)).toBe("null");
    expect(pythonJsonDumps("é")).toBe('"\\u00e9"');
    expect(pythonJsonDumps([])).toBe("[]");
    expect(pythonJsonDumps({})).toBe("{}");
    expect(pythonJsonDumps(12n)).toBe("12");
    expect(pythonJsonDumps([1, 2], 2)).toBe("[\n  1,\n  2\n]");
    expect(pythonJsonDumps([1, { a: 2 }], 0)).toBe('[\n1,\n{\n"a": 2\n}\n]');
    expect(pythonJsonDumps({ 'clé "x"': 1 })).toBe('{\n    "cl\\u00e9 \\"x\\"": 1\n}');
  });

  it("refuses values JSON cannot hold", () => {
    expect(() => pythonJsonDumps({ a: undefined })).toThrow(TypeError);
    expect(() => pythonJsonDumps([() => 1])).toThrow(TypeError);
  });

  it("gives back the same value through JSON.parse, in ASCII only (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = pythonJsonDumps(value);
        expect(text).toMatch(/^[\x00-\x7f]*$/);
        expect(text.endsWith("\n")).toBe(false);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      propertyParams({ numRuns: 300 }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// against the real Python

const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  // every UTF-16 code unit, lone surrogates included
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  // the characters that matter: all of ASCII (controls, DEL, quote, backslash) and edge cases
  fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
      fc.constantFrom("\u0080", "é", "\u2028", "\uffff", "😀", "\ud800", "\udfff"),
    ),
    maxLength: 30,
  }),
);

const weight = fc.oneof(
  fc.nat({ max: 10 }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ min: 0, max: 1e6, noNaN: true }),
  fc.double({ min: 0, max: 1e-3, noNaN: true }),
  // integral doubles that JSON.stringify (the input to Python here) still writes without exponent
  fc.double({ min: 1e16, max: 9e20, noNaN: true }),
  fc.constantFrom(0.1, 0.5, 1.5, 2.0, 1e-5, 1e-7, 1e15 + 0.5, 0.30000000000000004),
);

const category = (known: readonly string[]) => fc.oneof(fc.constant(null), fc.constantFrom(...known), anyString);

const { node: rubricTree } = fc.letrec<{ node: RubricNode }>((tie) => ({
  node: fc.record({
    id: fc.oneof(fc.uuid(), anyString),
    requirements: anyString,
    weight,
    sub_tasks: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant([] as RubricNode[]),
      fc.array(tie("node"), { maxLength: 3 }),
    ),
    task_category: category(TASK_CATEGORIES),
    finegrained_task_category: category(FINEGRAINED_TASK_CATEGORIES),
  }),
}));

describe("pythonJsonDumps against python3 json.dumps(indent=4)", () => {
  it.skipIf(skipWithoutPython)("gives the same bytes on 200 random rubric trees", () => {
    fc.assert(
      fc.property(fc.array(rubricTree, { minLength: 20, maxLength: 20 }), (batch) => {
        const expected = pythonDumpsMany(batch.map((t) => JSON.stringify(t)));
        batch.forEach((tree, i) => {
          expect(pythonJsonDumps(tree)).toBe(expected[i]);
          expect(serializeRubric(tree)).toBe(expected[i]);
        });
      }),
      propertyParams({ numRuns: 10 }),
    );
  });

  it.skipIf(skipWithoutPython)("formats random doubles like repr(float) and json.dumps", () => {
    const doubles = fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true }), {
      numRuns: 2000,
      seed: 20240601,
    });
    const extras = [0, -0, 1e16, 1e-5, 9.999999999999999e-5, 1e-4, 9999999999999998, 1e22, 5e-324];
    const values = [...doubles, ...extras];
    const reprs = pythonFloatReprMany(values.map((x) => (Object.is(x, -0) ? "-0" : String(x))));
    values.forEach((x, i) => expect([x, pythonFloatRepr(x)]).toEqual([x, reprs[i]]));

    // json.dumps of a number: int when integral (below 1e21, where JS writes no exponent).
    const jsonable = values.filter((x) => !Number.isInteger(x) || Math.abs(x) < 1e21);
    const dumps = pythonDumpsMany(jsonable.map((x) => JSON.stringify(x)));
    jsonable.forEach((x, i) => expect([x, pythonNumber(x)]).toEqual([x, dumps[i]]));
  });
});
