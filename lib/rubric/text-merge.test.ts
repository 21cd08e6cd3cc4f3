import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mergeText } from "./text-merge";
import { propertyParams } from "@/test/property";

describe("mergeText", () => {
  const base = "The model is trained with Adam for 100 epochs.";

  it("keeps both people's words when they type in different places", () => {
    const alice = "The model is trained with AdamW for 100 epochs.";
    const bob = "The model is trained with Adam for 100 epochs on CIFAR-10.";
    // Bob's change reached the server first; Alice's lands on top of it, and the other way round.
    expect(mergeText(base, alice, bob)).toEqual({
      text: "The model is trained with AdamW for 100 epochs on CIFAR-10.",
      clean: true,
    });
    expect(mergeText(base, bob, alice)).toEqual({
      text: "The model is trained with AdamW for 100 epochs on CIFAR-10.",
      clean: true,
    });
  });

  it("is last-writer-wins when nobody else changed the text, or when I changed nothing", () => {
    expect(mergeText(base, "New", base)).toEqual({ text: "New", clean: true });
    expect(mergeText(base, base, "Theirs")).toEqual({ text: "Theirs", clean: true });
  });

  it("falls back to my text when both rewrote the same words", () => {
    const merged = mergeText("abc", "xyz", "123");
    expect(merged.text).toBe("xyz");
  });

  it("keeps every insertion of two people appending at different ends (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 5, maxLength: 60 }),
        fc.stringMatching(/^[a-z]{1,10}$/),
        fc.stringMatching(/^[A-Z]{1,10}$/),
        (text, head, tail) => {
          const mine = `${head} ${text}`;
          const theirs = `${text} ${tail}`;
          const { text: merged } = mergeText(text, mine, theirs);
          expect(merged).toBe(`${head} ${text} ${tail}`);
        },
      ),
      propertyParams({ numRuns: 100 }),
    );
  });
});
