/**
 * The committed CPython character tables (python-unicode.ts) are what test/paperbench/unicode-tables.py
 * prints under the python3 the comparison tests run (3.11, as PaperBench), and the predicates built
 * on them agree with str.split() and str.isdigit() on every code point class boundary.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hasPythonDigit, pythonSplitWhitespace } from "./python-chars";
import {
  requirePaperbenchPython,
  runPaperbenchPythonJson,
  skipWithoutPaperbenchPython,
} from "@/test/paperbench/python";

const root = path.resolve(import.meta.dirname, "../../..");

describe.skipIf(skipWithoutPaperbenchPython)("CPython character tables", () => {
  it("are the generator's output for this python3 (3.11)", () => {
    requirePaperbenchPython();
    const run = spawnSync("python3", [path.join(root, "test/paperbench/unicode-tables.py")], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split("\n")[0]).toContain("CPython 3.11");
    expect(fs.readFileSync(path.join(import.meta.dirname, "python-unicode.ts"), "utf8")).toBe(run.stdout);
  });

  it("split() and isdigit() agree with Python on every code point", async () => {
    requirePaperbenchPython();
    // All code points but surrogates, 4096 to a string; "x" between them so split() shows each one.
    const texts: string[] = [];
    for (let base = 0; base < 0x110000; base += 4096) {
      let s = "";
      for (let cp = base; cp < base + 4096; cp++) if (cp < 0xd800 || cp > 0xdfff) s += "x" + String.fromCodePoint(cp);
      texts.push(s);
    }
    const expected = await runPaperbenchPythonJson<[number, boolean[]][]>(
      "out = [[len(t.split()), [c.isdigit() for c in t[1::2]]] for t in data]",
      texts,
    );
    texts.forEach((t, i) => {
      const chars = [...t].filter((_, j) => j % 2 === 1);
      expect(pythonSplitWhitespace(t).length).toBe(expected[i][0]);
      expect(chars.map(hasPythonDigit)).toEqual(expected[i][1]);
    });
  });
});
