import { describe, expect, it } from "vitest";
import { newThreadSchema } from "@/lib/comments/schemas";
import { paperCreateSchema, paperUpdateSchema } from "@/lib/papers/schemas";
import { assignmentSchema, reviewCommitSchema } from "@/lib/review/schemas";
import { operationRequestSchema } from "@/lib/rubric/operations";
import { parsePaperConfig } from "@/lib/rubric/paper-folder";
import { agentNameSchema } from "@/lib/submissions/schemas";
import { z } from "zod";
import { findUnstorableText, keptText, replaceNul, storableText, text, unstorableText } from "./text";
import { registerRequestSchema, releaseRequestSchema } from "@/lib/runner/protocol";

const NUL = "\u0000";
const LONE_HIGH = "\ud83d";
const LONE_LOW = "\ude00";

/** The one issue of a refused parse: where and what. */
function issue(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  const [first] = result.error!.issues;
  return { path: first.path.join("."), message: first.message };
}

describe("text the database can store", () => {
  it("finds NUL characters and lone surrogates, and accepts every paired one", () => {
    expect(unstorableText(`a${NUL}b`)).toBe("must not contain NUL characters (U+0000)");
    expect(unstorableText(`x${LONE_HIGH}`)).toMatch(/lone surrogate \(U\+D83D\)/);
    expect(unstorableText(`${LONE_LOW}x`)).toMatch(/lone surrogate \(U\+DE00\)/);
    expect(unstorableText(`${LONE_LOW}${LONE_HIGH}`)).toMatch(/U\+DE00/);
    expect(unstorableText("emoji 😀, é, \u2028, \uFFFD, tab\t")).toBeNull();
  });

  it("text() refuses them and keeps zod's other checks", () => {
    expect(issue(text().max(3), `ok${NUL}`)).toEqual({ path: "", message: "must not contain NUL characters (U+0000)" });
    expect(text().trim().parse("  ok ")).toBe("ok");
  });

  it("every text field of the request schemas refuses them, naming the field", () => {
    expect(issue(paperCreateSchema, { id: "p", title: `T${NUL}` })).toMatchObject({
      path: "title",
      message: expect.stringMatching(/NUL/),
    });
    expect(issue(paperUpdateSchema, { paperMarkdown: `# ${LONE_HIGH}` })).toMatchObject({ path: "paperMarkdown" });
    expect(issue(paperUpdateSchema, { blacklist: `https://x${NUL}` })).toMatchObject({ path: "blacklist" });
    expect(issue(newThreadSchema, { nodeKey: crypto.randomUUID(), body: `hi${NUL}` })).toMatchObject({ path: "body" });
    expect(issue(reviewCommitSchema, { nodeKey: crypto.randomUUID(), score: 1, reason: LONE_LOW })).toMatchObject({
      path: "reason",
    });
    expect(issue(assignmentSchema, { email: `a${NUL}@b.c` })).toMatchObject({ path: "email" });
    expect(issue(agentNameSchema, `agent ${LONE_HIGH}`).message).toMatch(/lone surrogate/);
    const node = {
      key: crypto.randomUUID(),
      parentKey: null,
      position: "a0",
      nodeId: "1",
      requirements: `r${NUL}`,
      weight: 1,
      taskCategory: null,
      finegrainedTaskCategory: null,
    };
    expect(
      issue(operationRequestSchema, { clientOpId: "c", baseRevision: 0, op: { kind: "create", nodes: [node] } }),
    ).toMatchObject({
      path: "op.nodes.0.requirements",
    });
    expect(
      issue(operationRequestSchema, {
        clientOpId: "c",
        baseRevision: 0,
        op: { kind: "update", key: node.key, fields: { taskCategory: `x${NUL}` } },
      }),
    ).toMatchObject({ path: "op.fields.taskCategory" });
    expect(() => parsePaperConfig(`title: "T\\0"`)).toThrow(/title/);
  });

  it("findUnstorableText names the first string or key in a JSON value, at any depth", () => {
    expect(findUnstorableText({ a: [1, "ok", { b: `x${NUL}` }] })).toEqual({
      path: ["a", 2, "b"],
      message: "must not contain NUL characters (U+0000)",
    });
    expect(findUnstorableText({ [`k${LONE_HIGH}`]: 1 })?.path).toEqual([`k${LONE_HIGH}`]);
    expect(findUnstorableText({ a: ["fine", 1, null, true] })).toBeNull();
    let deep: unknown = `end${NUL}`;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(100_000);
  });

  it("replaceNul keeps the text, with U+FFFD for each NUL", () => {
    expect(replaceNul(`a${NUL}${NUL}b`)).toEqual({ text: "a\uFFFD\uFFFDb", replaced: 2 });
    expect(replaceNul("clean")).toEqual({ text: "clean", replaced: 0 });
  });

  it("storableText and keptText keep a text, NULs and lone surrogates made U+FFFD, pairs untouched, length unchanged", () => {
    const dirty = `a${NUL}b${LONE_HIGH}c${LONE_LOW}d😀${LONE_LOW}${LONE_HIGH}`;
    expect(storableText(dirty)).toBe("a\uFFFDb\uFFFDc\uFFFDd😀\uFFFD\uFFFD");
    expect(storableText(dirty)).toHaveLength(dirty.length);
    expect(unstorableText(storableText(dirty))).toBeNull();
    expect(keptText(z.string().max(3)).safeParse("long").success).toBe(false);
    // The runner protocol's texts: a runner's name and hostname are kept, not refused (a 500 once).
    const registered = registerRequestSchema.parse({
      name: `gpu${NUL}box`,
      capabilities: {
        gpus: [{ index: 0, model: `H100${LONE_HIGH}`, memoryMiB: 1 }],
        cpus: 1,
        memoryBytes: 1,
        backend: "local",
        maxJobs: 1,
        hostname: `h${NUL}`,
      },
    });
    expect([registered.name, registered.capabilities.hostname, registered.capabilities.gpus[0].model]).toEqual([
      "gpu\uFFFDbox",
      "h\uFFFD",
      "H100\uFFFD",
    ]);
    expect(releaseRequestSchema.parse({ leaseId: crypto.randomUUID(), reason: `x${NUL}` }).reason).toBe("x\uFFFD");
  });
});
