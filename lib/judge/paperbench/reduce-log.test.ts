/**
 * sanitizeLine, the Drain port and reduceLog against PaperBench's own `sanitize_line` and
 * `reduce_log` (judge/utils.py) and its vendored drain3, run by CPython in one process per test.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Drain } from "./drain";
import { reduceLog, sanitizeLine } from "./reduce-log";
import {
  IMPORT_JUDGE_UTILS,
  requirePaperbenchPython,
  runPaperbenchPython,
  runPaperbenchPythonJson,
  skipWithoutPaperbenchPython,
} from "@/test/paperbench/python";
import { seededRandom } from "@/test/paperbench/random";
import { PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";

const HOSTILE_LINES = [
  "",
  "   ",
  "\t\x1c\x1f\u3000\xa0",
  "\ufeff", // not whitespace for Python
  "2025-01-28T18:47:06.1465140Z Starting",
  "2025-01-28 18:47:06 INFO step 5",
  "x2025-01-28 18:47:06y",
  "_2025-01-28_ 18:47:06_",
  "é2025-01-28é 18:47:06é",
  // A non-ASCII word character on one side only: Python's \b sees a word there, an ASCII \b would not.
  "é2025-01-28 x",
  "x 2025-01-28é",
  "数据12:00:00 x",
  "x 12:00:00ß",
  "ñ10.0.0.1 x",
  "x 10.0.0.1Ω",
  "édeadbeef12 x",
  "x deadbeef12д",
  "٣12:00:00 x",
  "x 12:00:00٣",
  "²12:00:00",
  "12:00:00²",
  "Ⅻdeadbeef12",
  "deadbeef12①",
  "\u0301deadbeef12",
  "𝟘12:00:00 x",
  "x 12:00:00𝟘",
  "😀12:00:00😀",
  "٢٠٢٥-٠١-٢٨ ١٨:٤٧:٠٦", // Arabic-Indic digits: Python's \d
  "²⁰²⁵-⁰¹-²⁸ 12:00:00", // superscripts: digits for isdigit, not \d
  "Epoch 1:  45%|████▌     | 450/1000 [00:12<00:15, 35.20it/s]",
  "Downloading: 100%|==========| 1.2M/1.2M [00:01<00:00, 1.1MB/s]",
  "loss 0.5 12.5 KB/s",
  "50% |",
  "50%\u3000|",
  "▍▍ partial",
  "▏",
  "connect 192.168.0.1:8080 and 10.0.0.256 and 1.2.3.4.5 and a1.2.3.4",
  "commit 3f2a9c1d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c deadbeef DEADBEEF0 cafe_babe12345678 g1234567890",
  "container abcdef12-3456-7890-abcd-ef1234567890",
  "1234567890 12345678 1234567",
  "step 1 loss 0.123 acc 99.5%",
  "step 2 loss 0.120 acc 99.6%",
  "Traceback (most recent call last):",
  '  File "/app/train.py", line 42, in <module>',
  "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB",
  "😀 emoji 😀 line 𝟘𝟙𝟚", // mathematical digits (astral \d)
  "\ud800 lone surrogate 12:00:00",
  "a\u2028b",
  "Ⅻ roman numeral ① circled",
  "<*> literal param <*>",
];

function randomLog(r: ReturnType<typeof seededRandom>): string {
  const words = [
    "step",
    "loss",
    "acc",
    "INFO",
    "WARN",
    "epoch",
    "<*>",
    "model",
    "saved",
    "to",
    "/tmp/x",
    "é",
    "数据",
    "①",
    "²",
    "٣",
    "𝟘",
  ];
  const spaces = ["", " ", " ", " ", "  ", "\t", "\xa0", "\u3000", "\x1c", "\x1f", "\ufeff", "\u200b"];
  const seps = ["\n", "\n", "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1d", "\x85", "\u2029"];
  const templates = Array.from({ length: r.int(1, 6) }, () => Array.from({ length: r.int(0, 7) }, () => r.pick(words)));
  const lines: string[] = [];
  for (let i = r.int(0, 120); i > 0; i--) {
    const t = r
      .pick(templates)
      .map((w) =>
        r.next() < 0.3
          ? String(r.int(0, 100000))
          : r.next() < 0.05
            ? `${r.int(0, 99)}:${r.int(10, 59)}:${r.int(10, 59)}`
            : w,
      );
    if (r.next() < 0.05) t.push(`${r.int(0, 100)}%|${"█".repeat(r.int(0, 4))}`);
    if (r.next() < 0.05) t.push(`${r.int(0, 300)}.${r.int(0, 300)}.${r.int(0, 300)}.${r.int(0, 300)}`);
    if (r.next() < 0.05) t.push(r.int(0, 0xffffffff).toString(16).padStart(r.int(6, 10), "0"));
    if (r.next() < 0.05) t.unshift(`2024-0${r.int(1, 9)}-1${r.int(0, 9)}T1${r.int(0, 9)}:00:00.5Z`);
    lines.push(
      (r.next() < 0.1 ? r.pick(spaces) : "") + t.join(r.pick(spaces)) + (r.next() < 0.1 ? r.pick(spaces) : ""),
    );
  }
  return lines
    .map((l) => l + r.pick(seps))
    .join("")
    .slice(0, r.next() < 0.5 ? undefined : -1);
}

/** A training log like the ones reproductions write: setup noise, tqdm bars rewritten with \r, results at its end. */
function trainingLog(seed: number): string {
  const r = seededRandom(seed);
  const parts: string[] = ["+ rm -rf venv .venv", "+ python -m venv venv", "Collecting torch==2.1.0"];
  for (let i = 0; i < 40; i++) parts.push(`  Downloading pkg${i}-1.${i}.0-py3-none-any.whl (${r.int(1, 900)} kB)`);
  parts.push(`Successfully installed ${Array.from({ length: 30 }, (_, i) => `pkg${i}-1.${i}.0`).join(" ")}`);
  for (let epoch = 1; epoch <= 20; epoch++) {
    let bar = "";
    for (let s = 0; s <= 100; s += 5)
      bar += `Epoch ${epoch}: ${s}%|${"█".repeat(s / 10)}${" ".repeat(10 - s / 10)}| ${s * 10}/1000 [00:${String(s % 60).padStart(2, "0")}<00:30, ${r.int(10, 99)}.${r.int(0, 99)}it/s]\r`;
    parts.push(bar);
    parts.push(
      `2025-03-0${(epoch % 9) + 1} 12:${String(epoch).padStart(2, "0")}:33,120 INFO train.py:88 epoch=${epoch} loss=${(1 / epoch).toFixed(4)} val_acc=${(50 + epoch * 2.1).toFixed(2)}`,
    );
    if (epoch % 7 === 0)
      parts.push(`Saved checkpoint to /output/ckpt_${epoch}_${r.int(0, 0xffffff).toString(16)}deadbeef.pt`);
  }
  parts.push(
    "==== Results ====",
    "| method | acc | f1 |",
    "| ours | 91.2 | 0.88 |",
    "| baseline | 85.0 | 0.80 |",
    "Done in 1234.5s",
  );
  return parts.join("\n") + "\n";
}

function realTexts(): string[] {
  const texts: string[] = [];
  for (const dir of [path.join(PAPERBENCH_DATA_DIR, "papers"), path.join(PAPERBENCH_DATA_DIR, "judge_eval")]) {
    if (!fs.existsSync(dir)) continue;
    for (const paper of fs.readdirSync(dir).sort()) {
      for (const name of ["rubric.json", "expected_result.json", "config.yaml"]) {
        const file = path.join(dir, paper, name);
        if (fs.existsSync(file)) texts.push(fs.readFileSync(file, "utf8"));
      }
    }
  }
  return texts;
}

describe.skipIf(skipWithoutPaperbenchPython)("reduce_log port, compared with PaperBench's Python", () => {
  it("sanitizeLine = sanitize_line on hostile and random lines", async () => {
    requirePaperbenchPython();
    const r = seededRandom(7);
    const lines = [...HOSTILE_LINES];
    for (let i = 0; i < 300; i++)
      lines.push(
        ...randomLog(r)
          .split(/[\n\r]/)
          .slice(0, 3),
      );
    const expected = await runPaperbenchPythonJson<string[]>(
      `${IMPORT_JUDGE_UTILS}\nout = [pb_utils.sanitize_line(l) for l in data]`,
      lines,
    );
    lines.forEach((l, i) => expect(sanitizeLine(l), JSON.stringify(l)).toBe(expected[i]));
  });

  it("Drain = drain3's TemplateMiner: cluster ids and templates, line by line", async () => {
    requirePaperbenchPython();
    const r = seededRandom(11);
    const runs: string[][] = [];
    for (let k = 0; k < 60; k++) runs.push(randomLog(r).split("\n"));
    // max_children: more than 100 distinct second-level tokens for one token count, and numbers among them.
    runs.push(
      Array.from(
        { length: 400 },
        (_, i) => `w${i % 3 === 0 ? "" : "x"}${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)} tail ${i % 5}`,
      ),
    );
    runs.push(
      Array.from({ length: 400 }, (_, i) => `tok${String.fromCharCode(65 + (i % 26), 97 + Math.floor(i / 26))} b c`),
    );
    runs.push(["", " ", "a", "a b", "", "a", "<*>", "<*> b"]);
    const expected = await runPaperbenchPythonJson<[number, string][][]>(
      [
        "from drain3 import TemplateMiner",
        "out = []",
        "for lines in data:",
        "    tm = TemplateMiner()",
        "    res = []",
        "    for l in lines:",
        "        x = tm.add_log_message(l)",
        "        res.append([x['cluster_id'], x['template_mined']])",
        "    out.append(res)",
      ].join("\n"),
      runs,
    );
    runs.forEach((lines, k) => {
      const drain = new Drain();
      const ours = lines.map((l) => {
        const { cluster } = drain.addLogMessage(l);
        return [cluster.clusterId, cluster.templateTokens.join(" ")];
      });
      expect(ours, `run ${k}`).toEqual(expected[k]);
    });
  });

  it("reduceLog = reduce_log on hostile, random, training-like and real texts", async () => {
    requirePaperbenchPython();
    const r = seededRandom(13);
    const texts = [
      "",
      "\n",
      "one line",
      "a\r\nb\r\n",
      HOSTILE_LINES.join("\n"),
      HOSTILE_LINES.join("\r"),
      trainingLog(1),
      trainingLog(2),
    ];
    for (let i = 0; i < 300; i++) texts.push(randomLog(r));
    // Huge single line and many identical lines.
    texts.push("x ".repeat(100_000), "same line 1\n".repeat(5000));
    const real = realTexts();
    if (process.env.CI === "true") expect(real.length).toBeGreaterThan(0);
    texts.push(...real);
    const expected = await runPaperbenchPythonJson<string[]>(
      `${IMPORT_JUDGE_UTILS}\nout = [pb_utils.reduce_log(t) for t in data]`,
      texts,
    );
    texts.forEach((t, i) => {
      const ours = reduceLog(t);
      if (ours !== expected[i]) expect(ours, `text #${i}`).toBe(expected[i]);
    });
  });

  it("collapses a tqdm log as PaperBench does (spot check of the Python side)", async () => {
    requirePaperbenchPython();
    const log = trainingLog(3);
    const python = await runPaperbenchPython(
      `${IMPORT_JUDGE_UTILS}\nimport sys\nsys.stdout.write(pb_utils.reduce_log(sys.stdin.read()))`,
      log,
    );
    expect(reduceLog(log)).toBe(python);
    expect(python).toContain("(repeated");
  });
});

describe("reduceLog without Python", () => {
  it("keeps the first line of a run of similar lines and counts the run", () => {
    expect(reduceLog("step 1 loss 0.5\nstep 2 loss 0.4\nstep 3 loss 0.3\ndone")).toBe(
      "step 1 loss 0.5\n  (repeated 3 times)\ndone",
    );
    expect(reduceLog("")).toBe("");
    expect(sanitizeLine("at 2025-01-28 18:47:06 from 10.0.0.1")).toBe("at <DATE> <TIME> from <IP>");
  });
});
