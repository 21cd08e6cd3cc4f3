import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operationSchema } from "@/lib/rubric/operations";
import { fieldWords, problemsSentence, zodProblems } from "./problem-words";

const KEY = "00000000-0000-4000-8000-000000000001";

describe("problem words", () => {
  it("says a requirement over the limit in words, with its length, and keeps the path for programs", () => {
    const parsed = operationSchema.safeParse({
      kind: "update",
      key: KEY,
      fields: { requirements: "x".repeat(150_800) },
    });
    const problems = zodProblems(parsed.error!);
    expect(problems).toEqual([
      { path: "fields.requirements", message: "is too long: 150,800 characters, the limit is 100,000" },
    ]);
    expect(problemsSentence(problems)).toBe("Requirement is too long: 150,800 characters, the limit is 100,000");
  });

  it("lists every problem of a schema, not only the first", () => {
    const parsed = operationSchema.safeParse({ kind: "update", key: "nope", fields: { nodeId: "", weight: -1 } });
    expect(problemsSentence(zodProblems(parsed.error!))).toBe(
      "Key must be a node key (uuid); PaperBench id must not be empty; Weight must be a number >= 0",
    );
  });

  it("puts zod's own messages in the same words", () => {
    const schema = z
      .object({
        title: z.string(),
        count: z.number(),
        tags: z.array(z.string()).min(1),
        kind: z.enum(["a", "b"]),
        short: z.string().max(3),
      })
      .strict();
    const parsed = schema.safeParse({ count: "3", tags: [], kind: "c", short: "abcd", extra: 1 });
    expect(zodProblems(parsed.error!).map((p) => p.message)).toEqual([
      "is missing",
      "must be a number",
      "needs at least one item",
      "must be one of: a, b",
      "is too long: the limit is 3 characters",
      "has fields it does not know: extra",
    ]);
  });

  it("names fields by their words", () => {
    expect(fieldWords("op.fields.requirements")).toBe("Requirement");
    expect(fieldWords("baseRevision")).toBe("Base revision");
    expect(fieldWords("ids[0]")).toBe("Ids (item 1)");
    expect(fieldWords("graders.2")).toBe("Graders (item 3)");
    expect(fieldWords("(root)")).toBe("The request");
  });
});
