import { describe, expect, it } from "vitest";
import { shortText } from "./short-text";

describe("shortText", () => {
  it("keeps a text that fits, with its whitespace collapsed", () => {
    expect(shortText("  Train   the\nmodel ", 20)).toBe("Train the model");
  });

  it("cuts at the last word boundary and adds an ellipsis", () => {
    const out = shortText("The MLP for solving the Convection equation is implemented", 30);
    expect(out).toBe("The MLP for solving the…");
    expect(out.length).toBeLessThanOrEqual(30);
  });

  it("drops punctuation left at the cut", () => {
    expect(shortText("Alpha beta, gamma delta epsilon", 13)).toBe("Alpha beta…");
  });

  it("cuts a word only when no boundary is near", () => {
    expect(shortText("Supercalifragilisticexpialidocious and more", 12)).toBe("Supercalifr…");
  });
});
