import { describe, expect, it } from "vitest";
import { distinguishingStarts, oneLine, rowText, tailStart } from "./row-text";

const shared = "The MLP for solving the Convection problem has been trained with";

describe("distinguishingStarts", () => {
  it("shows siblings that share a long opening from a few words before they differ", () => {
    const texts = [`${shared} a learning rate of 1e-3`, `${shared} a learning rate of 1e-4`, "Results are reported"];
    const starts = distinguishingStarts(texts);
    const rows = texts.map((t, i) => rowText(t, starts[i]));
    expect(rows[0]).toMatch(/^…\S.* 1e-3$/);
    expect(rows[1]).toMatch(/^…\S.* 1e-4$/);
    // The tail keeps some words before the difference, and starts at a word.
    expect(rows[0].length).toBeGreaterThan("… 1e-3".length + 10);
    expect(texts[0][starts[0] - 1]).toBe(" ");
    expect(rows[0]).not.toEqual(rows[1]);
    expect(rows[2]).toBe("Results are reported");
  });

  it("finds the most similar sibling, not only the neighbour in the list", () => {
    const texts = [`${shared} Adam`, "Unrelated requirement", `${shared} L-BFGS`];
    const starts = distinguishingStarts(texts);
    expect(starts[0]).toBeGreaterThan(0);
    expect(starts[2]).toBeGreaterThan(0);
    expect(starts[1]).toBe(0);
  });

  it("keeps short shared openings whole, and a lone child whole", () => {
    expect(distinguishingStarts(["Code for X is written", "Code for Y is written"])).toEqual([0, 0]);
    expect(distinguishingStarts([`${shared} Adam`])).toEqual([0]);
  });

  it("never cuts inside a formula", () => {
    const a =
      "The loss $\\mathcal{L}(\\theta) = \\frac{1}{N}\\sum_{i=1}^{N} (u_\\theta - u)^2 + \\lambda$ is minimised for the convection case";
    const b =
      "The loss $\\mathcal{L}(\\theta) = \\frac{1}{N}\\sum_{i=1}^{N} (u_\\theta - u)^2 + \\lambda$ is minimised for the reaction case";
    const [s] = distinguishingStarts([a, b]);
    const formula = a.indexOf("$");
    expect(s === 0 || s <= formula || s > a.lastIndexOf("$")).toBe(true);
    expect(tailStart(a, a.indexOf("+ \\lambda"))).toBeLessThanOrEqual(formula);
  });
});

describe("oneLine", () => {
  it("collapses whitespace", () => {
    expect(oneLine("  a\n\tb  c ")).toBe("a b c");
  });
});
