import { encode as encodeCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { encodeChat, encode as encodeO200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import {
  countChatTokens,
  countMessageTokens,
  countTextTokens,
  messageTokensAtMost,
  textTokensAtMost,
  tokenizerFamily,
  truncateToTokens,
} from "./budget";
import { mulberry32 } from "@/lib/random";
import { reduceLog as paperbenchReduceLog } from "@/lib/judge/paperbench/reduce-log";
import { efficientLog, paperbenchContext, reduceLog } from "./reproduce-log";
import { candidateFiles, isSkippedPath } from "./file-selection";

describe("token counting", () => {
  it("picks the tokenizer by model family", () => {
    for (const m of ["o3-mini", "o1", "o4-mini-2025-04-16", "gpt-4o-2024-08-06", "openai/gpt-4.1", "gpt-5"])
      expect(tokenizerFamily(m), m).toBe("o200k");
    for (const m of ["gpt-4", "gpt-3.5-turbo", "llama-3-70b", "qwen2.5"]) expect(tokenizerFamily(m), m).toBe("cl100k");
  });

  it("counts with the tokenizer, not by characters (chars/4 would be far off both ways)", () => {
    const spaces = " ".repeat(4000);
    const cjk = "再現実験の結果を評価する".repeat(100);
    expect(countTextTokens("o3-mini", "hello world")).toBe(2);
    expect(countTextTokens("o3-mini", spaces)).toBeLessThan(4000 / 4 / 5);
    expect(countTextTokens("o3-mini", cjk)).toBeGreaterThan((cjk.length / 4) * 1.5);
    // The two families differ on the same text, also when it is counted again (counts are kept),
    // for short texts and long ones (over 8,000 characters, kept apart).
    const long = `${cjk}\n${"The paper's method, reproduced. ".repeat(400)}`;
    expect(long.length).toBeGreaterThan(8_000);
    for (const text of [cjk, long]) {
      expect(countTextTokens("gpt-4", text)).not.toBe(countTextTokens("o3-mini", text));
      for (let i = 0; i < 2; i++) {
        expect(countTextTokens("gpt-4", text)).toBe(encodeCl100k(text).length);
        expect(countTextTokens("o3-mini", text)).toBe(encodeO200k(text).length);
      }
    }
    // Special-token text in a paper is plain text.
    expect(countTextTokens("o3-mini", "<|endoftext|>")).toBeGreaterThan(1);
  });

  it("counts a chat prompt as the endpoint bills it (gpt-tokenizer's chat encoder agrees)", () => {
    const messages = [
      { role: "system" as const, content: "You grade." },
      { role: "user" as const, content: "The paper:\n<paper>\n∑ x_i² — 結果\n</paper>" },
    ];
    expect(countChatTokens("o3-mini", messages)).toBe(encodeChat(messages, "gpt-4o").length);
  });

  it("a message counted again is the same count, also after its text changed in place or for another model", () => {
    const message: { role: "user"; content: string } = { role: "user", content: "再現実験の結果を評価する".repeat(50) };
    const fresh = (m: typeof message) => ({ ...m });
    const first = countMessageTokens("o3-mini", message);
    expect(countMessageTokens("o3-mini", message)).toBe(first);
    expect(first).toBe(countMessageTokens("o3-mini", fresh(message)));
    expect(countMessageTokens("gpt-4", message)).toBe(countMessageTokens("gpt-4", fresh(message)));
    expect(countMessageTokens("gpt-4", message)).not.toBe(first);
    message.content = "short";
    expect(countMessageTokens("o3-mini", message)).toBe(countMessageTokens("o3-mini", fresh(message)));
    expect(countMessageTokens("o3-mini", message)).toBeLessThan(first);
  });

  it("bounds a count from above without the tokenizer (the UTF-8 length), for every kind of text", () => {
    const random = mulberry32(7);
    const pick = (s: string) => s[Math.floor(random() * s.length)];
    const alphabet = "ab Z09_\n\t{}$\\é∑²—結果再現😀\uD800\uDC00";
    const texts = [
      "",
      "hello world",
      " ".repeat(4000),
      "再現実験の結果を評価する".repeat(100),
      "emoji 😀🎉 and a lone surrogate \uD800 here",
      "<|endoftext|> <|im_start|>user text that looks special",
      "$\\mathcal{L}(\\theta) = \\sum_i \\|f(x_i) - y_i\\|^2$",
      ...Array.from({ length: 50 }, () =>
        Array.from({ length: 1 + Math.floor(random() * 300) }, () => pick(alphabet)).join(""),
      ),
    ];
    for (const text of texts) {
      for (const model of ["o3-mini", "gpt-4"]) {
        expect(textTokensAtMost(text), JSON.stringify(text.slice(0, 40))).toBeGreaterThanOrEqual(
          countTextTokens(model, text),
        );
        const message = { role: "user" as const, content: text };
        expect(messageTokensAtMost(model, message)).toBeGreaterThanOrEqual(countMessageTokens(model, message));
      }
    }
    // It is the UTF-8 length (a surrogate at its longest), not a multiple of the characters.
    expect(textTokensAtMost("abc")).toBe(3);
    expect(textTokensAtMost("é∑")).toBe(5);
    expect(textTokensAtMost("😀")).toBe(6);
  });

  it("cuts to a token budget", () => {
    const cjk = "再現実験の結果を評価する".repeat(100);
    expect(countTextTokens("o3-mini", truncateToTokens("o3-mini", cjk, 100))).toBeLessThanOrEqual(100);
  });
});

describe("reproduce.log", () => {
  it("keeps only the last state of a rewritten line and collapses repeats", () => {
    const log = "epoch 1\r 10%\r 50%\r100%\nsame\nsame\nsame\nend";
    expect(reduceLog(log)).toBe("100%\nsame\n[the line above was repeated 2 more times]\nend");
  });

  /** Lines drain3 does not cluster (distinct words, varying counts), so reduction keeps them. */
  const varied = (n: number, seed = 1) => {
    const random = mulberry32(seed);
    return Array.from({ length: n }, () =>
      Array.from({ length: 1 + Math.floor(random() * 6) }, () => `w${Math.floor(random() * 1e6)}`).join(" "),
    );
  };

  it("shows PaperBench's head (drain3-reduced, cut to half the window) whole, then the log's end within its bound", () => {
    const lines = ["FIRST LINE", ...varied(3000), "FINAL accuracy 0.93"];
    const pb = paperbenchContext("o3-mini", 2000, lines.join("\n"), "paper");
    expect(pb.logTokens).toBe(1000);
    expect(pb.log).toBe(truncateToTokens("o3-mini", paperbenchReduceLog(lines.join("\n")), 1000));
    const shown = efficientLog("o3-mini", pb, 300)!;
    expect(shown.startsWith(pb.log!)).toBe(true);
    expect(shown).toContain("its last lines");
    expect(shown.trimEnd().endsWith("FINAL accuracy 0.93")).toBe(true);
    expect(countTextTokens("o3-mini", shown.slice(pb.log!.length))).toBeLessThanOrEqual(330);
  });

  it("past 200,000 characters PaperBench reads nothing more; efficient mode shows the end", () => {
    const log = varied(30_000).join("\n") + "\nFINAL 0.5\n";
    const pb = paperbenchContext("o3-mini", 1_000_000, log, "paper");
    expect(pb.log).toBe(paperbenchReduceLog(log.slice(0, 200_000)));
    expect(pb.log).not.toContain("FINAL 0.5");
    expect(efficientLog("o3-mini", pb, 1000)).toContain("FINAL 0.5");
  });

  it("a paper and log over the window: the log is cut first, then the paper, as _truncate_input does", () => {
    const paper = varied(1500, 2).join("\n");
    const pb = paperbenchContext("o3-mini", 4000, varied(1500, 3).join("\n"), paper);
    const paperTokens = countTextTokens("o3-mini", paper);
    // The log is cut to half the window (2000); log + paper still over 4000, so the log loses the overflow and 5k more: all of it.
    expect(paperTokens).toBeGreaterThan(2000);
    expect(pb.logTokens).toBe(0);
    // Then the paper alone is still over the window: it loses its overflow and 5k more (Python's negative slice).
    expect(pb.paperTokens).toBe(
      paperTokens > 4000 ? Math.max(0, paperTokens + (4000 - paperTokens) - 5000) : paperTokens,
    );
  });
});

describe("file selection", () => {
  const files = [
    { path: "README.md", size: 1, mtimeMs: 1000 },
    { path: "train.py", size: 1, mtimeMs: 1000 },
    { path: "out/results.csv", size: 1, mtimeMs: 5000 },
    { path: "old.csv", size: 1, mtimeMs: 1000 },
    { path: "venv/lib/x.py", size: 1, mtimeMs: 1000 },
    { path: "pkg.egg-info/PKG-INFO.txt", size: 1, mtimeMs: 1000 },
    { path: "reproduce.sh", size: 1, mtimeMs: 1000 },
    { path: "model.bin", size: 1, mtimeMs: 5000 },
  ];
  const ctx = { creationMs: 4000, shownApart: new Set(["reproduce.sh", "reproduce.log"]) };
  const paths = (c: Parameters<typeof candidateFiles>[1]) => candidateFiles(files, c, ctx).map((f) => f.path);

  it("docs and code for development and execution, docs and touched tables for results, all three for a subtree", () => {
    expect(paths("Code Development")).toEqual(["README.md", "train.py"]);
    expect(paths("Code Execution")).toEqual(["README.md", "train.py"]);
    expect(paths("Result Analysis")).toEqual(["README.md", "out/results.csv"]);
    expect(paths("Subtree")).toEqual(["README.md", "out/results.csv", "train.py"]);
  });

  it("skips environments, caches and VCS folders", () => {
    expect(isSkippedPath("venv/lib/x.py")).toBe(true);
    expect(isSkippedPath("a/.git/config")).toBe(true);
    expect(isSkippedPath("pkg.egg-info/PKG-INFO.txt")).toBe(true);
    expect(isSkippedPath("src/node_modules/a.js")).toBe(true);
    expect(isSkippedPath("src/__pycache__/m.py")).toBe(true);
    expect(isSkippedPath("venv.py")).toBe(false);
  });
});
