import { describe, expect, it } from "vitest";
import { isInlineMath, splitMath } from "./math";

describe("splitMath", () => {
  it("finds inline and display math between text", () => {
    expect(splitMath("Loss $L = u_t + u_x$ below $$\\int_0^1 f\\,dx$$ done")).toEqual([
      { kind: "text", text: "Loss " },
      { kind: "math", tex: "L = u_t + u_x", display: false },
      { kind: "text", text: " below " },
      { kind: "math", tex: "\\int_0^1 f\\,dx", display: true },
      { kind: "text", text: " done" },
    ]);
  });

  it("keeps prices as text", () => {
    expect(splitMath("costs $5 and $10 per run")).toEqual([{ kind: "text", text: "costs $5 and $10 per run" }]);
    expect(splitMath("between $5-$10.")).toEqual([{ kind: "text", text: "between $5-$10." }]);
  });

  it("finds math after a price", () => {
    expect(splitMath("$5 and $10 for $\\beta$")).toEqual([
      { kind: "text", text: "$5 and $10 for " },
      { kind: "math", tex: "\\beta", display: false },
    ]);
  });

  it("reads \\$ as a literal dollar, also inside what would be math", () => {
    expect(splitMath("a \\$x\\$ b")).toEqual([{ kind: "text", text: "a $x$ b" }]);
    expect(splitMath("$a \\$ b$")).toEqual([{ kind: "math", tex: "a \\$ b", display: false }]);
  });

  it("leaves unbalanced dollars as text", () => {
    expect(splitMath("only $x here")).toEqual([{ kind: "text", text: "only $x here" }]);
    expect(splitMath("open $$x never closed")).toEqual([{ kind: "text", text: "open $$x never closed" }]);
    expect(splitMath("empty $$$$ and $ $")).toEqual([{ kind: "text", text: "empty $$$$ and $ $" }]);
  });

  it("needs a non-space after the opener and before the closer", () => {
    expect(splitMath("$ x$ and $x $")).toEqual([{ kind: "text", text: "$ x$ and $x $" }]);
  });

  it("returns plain text unchanged and nothing for nothing", () => {
    expect(splitMath("no math")).toEqual([{ kind: "text", text: "no math" }]);
    expect(splitMath("")).toEqual([]);
  });
});

describe("isInlineMath", () => {
  it("follows pandoc's rule", () => {
    expect(isInlineMath("x", "")).toBe(true);
    expect(isInlineMath("x", "1")).toBe(false);
    expect(isInlineMath(" x", ",")).toBe(false);
    expect(isInlineMath("5 and ", "1")).toBe(false);
    expect(isInlineMath("", "")).toBe(false);
  });
});
