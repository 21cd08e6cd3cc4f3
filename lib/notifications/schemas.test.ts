import { describe, expect, it } from "vitest";
import { unstorableText } from "@/lib/text";
import { markReadSchema, SNAPSHOT_CHARS, snapshotText } from "./schemas";

describe("snapshotText", () => {
  it("keeps a short text, whitespace folded", () => {
    expect(snapshotText("  Is the\n\nweight   right?  ")).toBe("Is the weight right?");
  });

  it("cuts a long text at a word, with an ellipsis, within the limit", () => {
    const long = "word ".repeat(100);
    const cut = snapshotText(long);
    expect(Array.from(cut).length).toBeLessThanOrEqual(SNAPSHOT_CHARS);
    expect(cut.endsWith("word…")).toBe(true);
  });

  it("never cuts through a surrogate pair (the database could not store the half)", () => {
    const emoji = "😀".repeat(SNAPSHOT_CHARS + 10);
    const cut = snapshotText(emoji);
    expect(unstorableText(cut)).toBeNull();
    expect(Array.from(cut)).toHaveLength(SNAPSHOT_CHARS);
  });
});

describe("markReadSchema", () => {
  it("takes ids or all, not both, not neither", () => {
    expect(markReadSchema.safeParse({ all: true }).success).toBe(true);
    expect(markReadSchema.safeParse({ ids: [crypto.randomUUID()] }).success).toBe(true);
    expect(markReadSchema.safeParse({}).success).toBe(false);
    expect(markReadSchema.safeParse({ all: true, ids: [crypto.randomUUID()] }).success).toBe(false);
    expect(markReadSchema.safeParse({ all: false }).success).toBe(false);
    expect(markReadSchema.safeParse({ ids: [] }).success).toBe(false);
    const bad = markReadSchema.safeParse({ ids: ["nope"] });
    expect(bad.error?.issues[0].path).toEqual(["ids", 0]);
  });
});
