/**
 * readPythonText against PaperBench's own `safe_read_file` (judge/utils.py, run by CPython 3.11):
 * every case is written to a file and read by both, in one python3 process. Cases aim at what
 * decides between the UTF-8 and the latin-1 reading: invalid bytes just inside or just past the
 * chunks TextIOWrapper reads, sequences cut by a chunk's end, `\r` held back at a chunk's end, and
 * characters of 1–4 bytes around the 200 000-character limit.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SIZE_LIMIT_CHARS, bytesNeededFor, readPythonText } from "./python-text";
import {
  IMPORT_JUDGE_UTILS,
  PAPERBENCH_SRC_DIR,
  requirePaperbenchPython,
  runPaperbenchPythonJson,
  skipWithoutPaperbenchPython,
} from "@/test/paperbench/python";
import { seededRandom } from "@/test/paperbench/random";
import { PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";

interface Case {
  name: string;
  bytes: Uint8Array;
  n: number | null;
}

const enc = (s: string) => new TextEncoder().encode(s);
const cat = (...parts: (Uint8Array | string | number[])[]) => {
  const arrays = parts.map((p) => (typeof p === "string" ? enc(p) : p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((s, a) => s + a.length, 0));
  let o = 0;
  for (const a of arrays) {
    out.set(a, o);
    o += a.length;
  }
  return out;
};
const N = SIZE_LIMIT_CHARS;
const a = (k: number) => "a".repeat(k);

function handCases(): Case[] {
  const c = (name: string, bytes: Uint8Array, n: number | null = N): Case => ({ name, bytes, n });
  return [
    c("empty", new Uint8Array()),
    c("empty, n=0", new Uint8Array(), 0),
    c("text, n=0 with invalid byte", cat("é", [0xff]), 0),
    c("BOM kept", cat([0xef, 0xbb, 0xbf], "hello\r\nworld")),
    c("NULs", cat("a\0b", [0, 0], "é\0")),
    c("CR LF CRLF mix", enc("a\rb\nc\r\nd\r\r\ne\n\r")),
    c("ends in CR", enc("abc\r")),
    c("latin-1 file", Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a, 0xa4, 0xff, 0x80])),
    c("exactly n ASCII then 0xff (not read)", cat(a(N), [0xff])),
    c("n-1 ASCII then 0xff (read)", cat(a(N - 1), [0xff])),
    c("second chunk: 0xff at its last byte", cat("é", a(199998 + 8191), [0xff])),
    c("second chunk: 0xff just past it", cat("é", a(199998 + 8192), [0xff])),
    c("ED A0 cut at chunk end (kept, never decoded)", cat("é", a(199998 + 8190), [0xed, 0xa0])),
    c("ED A0 cut at chunk end, then 80", cat("é", a(199998 + 8190), [0xed, 0xa0, 0x80])),
    c("ED A0 80 inside the first chunk", cat(a(1000), [0xed, 0xa0, 0x80], a(N))),
    c("E0 80 cut at chunk end (invalid at once)", cat("é", a(199998 + 8190), [0xe0, 0x80])),
    c("F4 90 cut at chunk end", cat("é", a(199998 + 8190), [0xf4, 0x90])),
    c("F0 9F cut at chunk end", cat("é", a(199998 + 8190), [0xf0, 0x9f])),
    c("F0 9F 98 cut at chunk end", cat("é", a(199998 + 8189), [0xf0, 0x9f, 0x98])),
    c("F0 9F 41 cut at chunk end", cat("é", a(199998 + 8189), [0xf0, 0x9f, 0x41])),
    c("C3 cut at chunk end then A9", cat("é", a(199998 + 8191), [0xc3, 0xa9], a(10))),
    c("file ends inside a sequence, needed", cat("é", a(100), [0xe2, 0x82])),
    c("file ends inside a sequence, not needed", cat(a(N), [0xe2, 0x82])),
    c("emoji all the way", enc("😀".repeat(N + 1))),
    c("emoji then 0xff right after the last chunk", cat("😀".repeat(N), [0xff])),
    c("emoji, 0xff late", cat("😀".repeat(N + 3000), [0xff])),
    c("3-byte chars then 0xff", cat("€".repeat(N + 100), [0xff])),
    c("CRLF lines then 0xff", cat("x\r\n".repeat(N), [0xff])),
    c("CR held back at first chunk's end", cat(a(N - 1), "\r\n", a(10))),
    c("CR held back, then invalid", cat(a(N - 1), "\r", [0xff])),
    c("CR at chunk end, LF first in next", cat("é", a(199997), "\r", "\n", a(9000), [0xff])),
    c("huge single line", enc("progress 45%|████▌ | 4500/10000 [00:12<00:15, 350.2it/s]\r".repeat(20000))),
    c("lone surrogate bytes only", Uint8Array.from([0xed, 0xb0, 0x80])),
    c("overlong", Uint8Array.from([0xc0, 0xaf, 0x41])),
    c("read all, valid", enc("é😀\r\nx"), null),
    c("read all, invalid at the end", cat("é", a(500000), [0xff]), null),
    c("small n, invalid within 8192", cat("é", a(8189), [0xff]), 10),
    c("small n, invalid past 8192", cat("é", a(8190), [0xff]), 10),
  ];
}

/** Files built from pieces: mostly valid text of 1–4-byte characters and newlines, some invalid or cut bytes. */
function randomCases(count: number, seed: number, limit?: number): Case[] {
  const r = seededRandom(seed);
  const valid = ["a", "bc ", "é", "€", "😀", "\r", "\n", "\r\n", "\0", "\ufeff", "\u2028", "\x85"];
  const invalid = [
    [0xff],
    [0x80],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xed, 0xa0],
    [0xf4, 0x90, 0x80, 0x80],
    [0xe0, 0x80],
    [0xe2, 0x82],
    [0xf0, 0x9f, 0x98],
    [0xc3],
  ];
  const cases: Case[] = [];
  for (let k = 0; k < count; k++) {
    // n between 2 000 and 12 000: the first chunk (max(8192, n) bytes) can leave characters missing.
    const n = limit ?? r.int(2000, 12000);
    const targetBytes = r.int(Math.floor(n * 0.5), n * 6 + 9000);
    const parts: (string | number[])[] = [];
    let size = 0;
    const invalidOdds = r.pick([0, 0.00005, 0.0005, 0.003]);
    const heavy = r.pick([["a"], ["😀"], ["€", "\r\n"], valid]);
    while (size < targetBytes) {
      if (r.next() < invalidOdds) {
        const bad = r.pick(invalid);
        parts.push(bad);
        size += bad.length;
      } else {
        const piece = r.next() < 0.8 ? r.pick(heavy).repeat(r.int(1, 50)) : r.pick(valid);
        parts.push(piece);
        size += enc(piece).length;
      }
    }
    if (r.next() < 0.3) parts.push(r.pick(invalid));
    cases.push({ name: `random #${k} (seed ${seed})`, bytes: cat(...parts), n });
  }
  return cases;
}

/** Real text from the PaperBench data (rubrics, judge-eval results): present locally and in CI. */
function realCases(): Case[] {
  const files: string[] = [];
  for (const dir of [path.join(PAPERBENCH_DATA_DIR, "papers"), path.join(PAPERBENCH_DATA_DIR, "judge_eval")]) {
    if (!fs.existsSync(dir)) continue;
    for (const paper of fs.readdirSync(dir).sort()) {
      for (const name of ["rubric.json", "expected_result.json", "config.yaml", "blacklist.txt"]) {
        const file = path.join(dir, paper, name);
        if (fs.existsSync(file)) files.push(file);
      }
    }
  }
  return files.slice(0, 30).map((file) => ({ name: file, bytes: new Uint8Array(fs.readFileSync(file)), n: N }));
}

const PYTHON_READ = [
  IMPORT_JUDGE_UTILS,
  "import base64, os, tempfile",
  "from pathlib import Path",
  "tmp = tempfile.mkdtemp()",
  "out = []",
  "for i, (b64, n) in enumerate(data):",
  "    p = Path(tmp) / f'f{i}'",
  "    p.write_bytes(base64.b64decode(b64))",
  "    out.append(pb_utils.safe_read_file(p, n))",
  "    p.unlink()",
  "os.rmdir(tmp)",
].join("\n");

/** How many cases had invalid UTF-8 that was read (latin-1 result) and that was never read; how many were cut to a head. */
async function compare(cases: Case[]): Promise<{ invalidRead: number; invalidUnread: number; headOnly: number }> {
  const stats = { invalidRead: 0, invalidUnread: 0, headOnly: 0 };
  const expected = await runPaperbenchPythonJson<string[]>(
    PYTHON_READ,
    cases.map((c) => [Buffer.from(c.bytes).toString("base64"), c.n]),
  );
  cases.forEach((c, i) => {
    const n = c.n ?? -1;
    const ours = readPythonText(c.bytes, n);
    // Compare by value but report by name: a 200 000-character diff says nothing.
    if (ours !== expected[i]) {
      expect.fail(
        `${c.name}: ours ${ours.length} units, Python ${expected[i].length}; first difference at ${[...ours].findIndex((ch, j) => ch !== [...expected[i]][j])}`,
      );
    }
    // The caller fetches only the file's head: that must give the same text.
    const need = bytesNeededFor(n);
    if (need < c.bytes.length) {
      stats.headOnly++;
      expect(readPythonText(c.bytes.subarray(0, need), n), `${c.name} (head only)`).toBe(ours);
    }
    let validFile = true;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(c.bytes);
    } catch {
      validFile = false;
    }
    // A UTF-8 reading of these files has characters above U+00FF; a latin-1 one cannot.
    if (!validFile) stats[/[^\x00-\xff]/.test(ours) ? "invalidUnread" : "invalidRead"]++;
  });
  return stats;
}

describe.skipIf(skipWithoutPaperbenchPython)("readPythonText = safe_read_file", () => {
  it("hand-written hostile files", async () => {
    requirePaperbenchPython();
    await compare(handCases());
  });

  it("seeded random files around the chunk edges", async () => {
    requirePaperbenchPython();
    const stats = await compare(randomCases(300, 2020));
    // The generator must keep hitting both sides of the chunk edges, and the head-only reading.
    expect(stats.invalidRead).toBeGreaterThan(20);
    expect(stats.invalidUnread).toBeGreaterThan(20);
    expect(stats.headOnly).toBeGreaterThan(20);
  });

  it("seeded random files at PaperBench's own limit (200 000 characters)", async () => {
    requirePaperbenchPython();
    const stats = await compare(randomCases(24, 2021, SIZE_LIMIT_CHARS));
    expect(stats.invalidRead).toBeGreaterThan(3);
    expect(stats.invalidUnread).toBeGreaterThan(1);
  });

  it("real PaperBench files", async () => {
    requirePaperbenchPython();
    const cases = realCases();
    if (process.env.CI === "true") expect(cases.length).toBeGreaterThan(0);
    await compare(cases);
  });

  it("uses PaperBench's source from PAPERBENCH_SRC_DIR", () => {
    expect(fs.existsSync(path.join(PAPERBENCH_SRC_DIR, "paperbench", "judge", "utils.py"))).toBe(true);
  });
});

describe("readPythonText without Python", () => {
  it("takes UTF-8, else latin-1, with universal newlines, counting code points", () => {
    expect(readPythonText(enc("a\r\nb\rc"), 10)).toBe("a\nb\nc");
    expect(readPythonText(enc("😀😀😀"), 2)).toBe("😀😀");
    expect(readPythonText(Uint8Array.from([0x63, 0xe9]), 10)).toBe("cé");
    expect(readPythonText(cat([0xef, 0xbb, 0xbf], "x"), 10)).toBe("\ufeffx");
  });
});
