/**
 * formatPython, pythonSuffix/pythonPathParts and pythonSplitlines against CPython itself: the same
 * inputs (hand-written hostile ones and seeded random ones) go through one python3 process.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPython } from "./python-format";
import { formatFile } from "./format-file";
import { pythonPathParts, pythonPathStr, pythonSuffix } from "./path-rules";
import { pythonStrip } from "./python-chars";
import { pythonSplitlines } from "./python-text";
import {
  IMPORT_JUDGE_UTILS,
  requirePaperbenchPython,
  runPaperbenchPythonJson,
  skipWithoutPaperbenchPython,
} from "@/test/paperbench/python";

const SEPARATORS = [
  "\n",
  "\r",
  "\r\n",
  "\v",
  "\f",
  "\x1c",
  "\x1d",
  "\x1e",
  "\x1f",
  "\x85",
  "\u2028",
  "\u2029",
  "\n\r",
  "\t",
  " ",
];

describe.skipIf(skipWithoutPaperbenchPython)("python rules, compared with CPython", () => {
  it("splitlines like str.splitlines()", async () => {
    requirePaperbenchPython();
    const hand = [
      "",
      "\n",
      "\r\n",
      "\r",
      "\r\r\n",
      "a",
      "a\n",
      "a\nb",
      "a\r\nb\r\n",
      "\n\n",
      "a\u2028b\u2029",
      "x\x85y\x1c",
      "\ud800\n\udc00",
      "😀\r😀",
    ];
    const random = fc.sample(
      fc
        .array(
          fc.oneof(
            fc.constantFrom(...SEPARATORS),
            fc.constantFrom("a", "é", "😀", "\ud800", ""),
            fc.string({ maxLength: 3 }),
          ),
          { maxLength: 12 },
        )
        .map((p) => p.join("")),
      { seed: 20, numRuns: 400 },
    );
    const inputs = [...hand, ...random];
    const expected = await runPaperbenchPythonJson<string[][]>("out = [s.splitlines() for s in data]", inputs);
    expect(inputs.map(pythonSplitlines)).toEqual(expected);
  });

  it("suffix and parts like PurePosixPath", async () => {
    requirePaperbenchPython();
    const hand = [
      "",
      ".",
      "..",
      "...",
      ".bashrc",
      "a.tar.gz",
      "file.",
      "a/b.c/d",
      "a/b.c/",
      "/",
      "//",
      "///",
      "//a/b.py",
      "/x.y",
      "a//b/./c.ipynb",
      "a/..",
      "a.b/..",
      "x.😀",
      ".😀.",
      "name .py",
      " .py",
      "a\\b.py",
      "./a.cu",
    ];
    const random = fc.sample(
      fc
        .array(fc.constantFrom("/", ".", "a", "b", "é", "😀", " ", "..", "py"), { maxLength: 8 })
        .map((p) => p.join("")),
      { seed: 21, numRuns: 400 },
    );
    const inputs = [...hand, ...random];
    const expected = await runPaperbenchPythonJson<[string, string[], string][]>(
      "from pathlib import PurePosixPath as P\nout = [[P(s).suffix, list(P(s).parts), str(P(s))] for s in data]",
      inputs,
    );
    expect(inputs.map((s) => [pythonSuffix(s), pythonPathParts(s), pythonPathStr(s)])).toEqual(expected);
  });

  it("formats like str.format(**values), raising where Python raises", async () => {
    requirePaperbenchPython();
    const values = { a: "A{b}", b: "}{", preceding_criteria: "x\ny", "": "empty", " a ": "spaced" };
    const hand = [
      "",
      "{a}",
      "{{a}}",
      "{{{a}}}",
      "{a}{b}",
      "}}{{",
      "{",
      "}",
      "a}b",
      "{a",
      "{c}",
      "{ a }",
      "{preceding_criteria}\n{a}",
      "{a!r}",
      "{a:>3}",
      "{0}",
      "{}",
      "x{{",
      "{{}}",
      "😀{a}😀",
    ];
    const random = fc.sample(
      fc
        .array(fc.constantFrom("{", "}", "{{", "}}", "{a}", "{b}", "a", "😀", "{c}"), { maxLength: 7 })
        .map((p) => p.join("")),
      { seed: 22, numRuns: 400 },
    );
    const inputs = [...hand, ...random];
    const expected = await runPaperbenchPythonJson<(string | null)[]>(
      [
        "values = " + JSON.stringify(values),
        "def fmt(t):",
        "    try:",
        "        return t.format(**values)",
        "    except (KeyError, ValueError, IndexError):",
        "        return None",
        "out = [fmt(t) for t in data]",
      ].join("\n"),
      inputs,
    );
    const ours = inputs.map((t) => {
      try {
        return formatPython(t, values);
      } catch {
        return null;
      }
    });
    // Conversions and format specs are refused by the port though Python accepts them: compare the rest.
    const supported = inputs.map((t) => !/\{[^{}]*[!:][^{}]*\}/.test(t.replace(/\{\{|\}\}/g, "")));
    expect(ours.filter((_, i) => supported[i])).toEqual(expected.filter((_, i) => supported[i]));
    expect(() => formatPython("{a!r}", values)).toThrow(/Unsupported/);
    expect(() => formatPython("{nope}", values)).toThrow(/KeyError: 'nope'/);
  });

  it("strips like str.strip() and str.strip(chars), and formats files like format_file", async () => {
    requirePaperbenchPython();
    const pieces = [
      "",
      " ",
      "\t",
      "\n",
      "\x1c",
      "\x1f",
      "\x85",
      "\xa0",
      "\u3000",
      "\ufeff",
      "\u200b",
      "/",
      "a",
      "é",
      "😀",
      "\ud800",
    ];
    const hand = ["", "   ", " a ", "\ufeffa\ufeff", "\x1c\x1dx\x1e\x1f", "\u3000x\u2028", "/a/b/", " /a.py \n"];
    const random = fc.sample(
      fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((p) => p.join("")),
      { seed: 23, numRuns: 400 },
    );
    const inputs = [...hand, ...random];
    const paths = ["a.py", "./a.py", "dir//b.md", "/abs/x.txt", "a/", "."];
    const expected = await runPaperbenchPythonJson<[string, string, string][]>(
      [
        IMPORT_JUDGE_UTILS,
        "from pathlib import Path",
        `paths = ${JSON.stringify(paths)}`,
        "out = [[s.strip(), s.strip(' /'), pb_utils.format_file(Path(paths[i % len(paths)]), s)] for i, s in enumerate(data)]",
      ].join("\n"),
      inputs,
    );
    expect(
      inputs.map((s, i) => [pythonStrip(s), pythonStrip(s, " /"), formatFile(paths[i % paths.length], s)]),
    ).toEqual(expected);
  });
});
