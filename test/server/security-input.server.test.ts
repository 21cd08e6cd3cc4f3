/**
 * Hostile input is refused in words and harms no one else (issue 10, items 7, 11 and 12): rubric
 * operations keep to the import's limits, a create never reveals another paper's node keys, and
 * text the database cannot store is a 400 naming the field. Against the built studio over HTTP
 * on PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { NewNode } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { DEMO_PAPER_ID, api, postOperation } from "./harness";
import { studioSuite } from "./studio-suite";

interface ErrorAnswer {
  error: { code: string; message: string; details: { path: string; message: string; reason?: string }[] };
}

/** A chain of `length` new nodes in pre-order, the first under `parentKey`. */
function chain(parentKey: string | null, length: number, prefix = "n"): NewNode[] {
  const nodes: NewNode[] = [];
  let parent = parentKey;
  for (let i = 0; i < length; i++) {
    const key = crypto.randomUUID();
    nodes.push({
      key,
      parentKey: parent,
      position: "a0",
      nodeId: `${prefix}${i}`,
      requirements: `level ${i}`,
      weight: 1,
      taskCategory: null,
      finegrainedTaskCategory: null,
    });
    parent = key;
  }
  return nodes;
}

function inputSuite(kind: "pglite" | "postgres") {
  describe(`hostile input is refused in words and harms no one else (${kind})`, () => {
    const studio = studioSuite(kind, "security-input");

    const nodes = async (paperId = DEMO_PAPER_ID) =>
      (
        await api<{ revision: number; nodes: NodeRow[] }>(
          studio.url,
          studio.staff,
          "GET",
          `/api/papers/${paperId}/rubric/nodes`,
        )
      ).body;
    const create = async (paperId: string, nodesToCreate: NewNode[]) => {
      const { revision } = await nodes(paperId);
      return postOperation(studio.url, studio.staff, paperId, {
        clientOpId: crypto.randomUUID(),
        baseRevision: revision,
        op: { kind: "create", nodes: nodesToCreate },
      });
    };

    it("a create past the depth limit is a 409 naming the limit, and the rubric still reads for everyone", async () => {
      const root = (await nodes()).nodes.find((n) => n.parentKey === null)!;
      // The root is level 1: 63 more levels reach the limit of 64.
      const spine = chain(root.key, 63);
      expect((await create(DEMO_PAPER_ID, spine)).status).toBe(200);
      const before = await nodes();

      const deeper = await create(DEMO_PAPER_ID, chain(spine.at(-1)!.key, 1));
      expect(deeper.status).toBe(409);
      const error = (deeper.body as unknown as ErrorAnswer).error;
      expect(error.message).toBe("The rubric would be 65 levels deep; the limit is 64 levels");
      expect(error.details[0].reason).toBe("limit");
      // The attack of the report: a 3,000-deep chain in one create.
      expect((await create(DEMO_PAPER_ID, chain(root.key, 3000))).status).toBe(409);

      expect(await nodes()).toEqual(before);
      const rubric = await api<{ stats: { depth: number } }>(
        studio.url,
        studio.staff,
        "GET",
        `/api/papers/${DEMO_PAPER_ID}/rubric`,
      );
      expect(rubric.status).toBe(200);
      expect(rubric.body.stats.depth).toBe(64);
    });

    it("a create with a key another paper uses answers exactly as a fresh key does", async () => {
      const other = await api(studio.url, studio.staff, "POST", "/api/papers", {
        id: "other-paper",
        title: "Someone else's paper",
      });
      expect(other.status).toBe(201);
      const [otherRoot, otherLeaf] = chain(null, 2, "o");
      expect((await create("other-paper", [otherRoot, otherLeaf])).status).toBe(200);

      const root = (await nodes()).nodes.find((n) => n.parentKey === null)!;
      const leaf = (key: string): NewNode => ({ ...chain(root.key, 1)[0], key });
      const fresh = await create(DEMO_PAPER_ID, [leaf(crypto.randomUUID())]);
      const reused = await create(DEMO_PAPER_ID, [leaf(otherLeaf.key)]);
      expect(fresh.status).toBe(200);
      expect(reused.status).toBe(200);
      expect(Object.keys(reused.body).sort()).toEqual(Object.keys(fresh.body).sort());
      expect(reused.body).toMatchObject({ inverse: { kind: "delete", keys: [otherLeaf.key] } });
      // The other paper's node is untouched.
      expect((await nodes("other-paper")).nodes.find((n) => n.key === otherLeaf.key)?.requirements).toBe("level 1");
    });

    it("a NUL or lone surrogate in a text field is a 400 naming the field, never a 500", async () => {
      const paperUrl = `/api/papers/${DEMO_PAPER_ID}`;
      const title = await api<ErrorAnswer>(studio.url, studio.staff, "PATCH", paperUrl, { title: "Evil\u0000title" });
      expect(title.status).toBe(400);
      expect(title.body.error.details).toEqual([
        { path: "title", message: "must not contain NUL characters (U+0000)" },
      ]);
      const markdown = await api<ErrorAnswer>(studio.url, studio.staff, "PATCH", paperUrl, {
        paperMarkdown: "half \ud800 a pair",
      });
      expect(markdown.status).toBe(400);
      expect(markdown.body.error.details[0].path).toBe("paperMarkdown");

      const { revision, nodes: rows } = await nodes();
      const leaf = rows.find((n) => n.parentKey !== null)!;
      const update = await postOperation(studio.url, studio.staff, DEMO_PAPER_ID, {
        clientOpId: crypto.randomUUID(),
        baseRevision: revision,
        op: { kind: "update", key: leaf.key, fields: { requirements: "x\u0000y" } },
      });
      expect(update.status).toBe(400);
      expect(JSON.stringify(update.body)).toContain("op.fields.requirements");

      const comment = await api<ErrorAnswer>(studio.url, studio.staff, "POST", `${paperUrl}/rubric/comments`, {
        nodeKey: leaf.key,
        body: "hi\u0000",
      });
      expect(comment.status).toBe(400);
      expect(comment.body.error.details[0].path).toBe("body");
      expect(
        (await api<{ paper: { title: string } }>(studio.url, studio.staff, "GET", paperUrl)).body.paper.title,
      ).not.toContain("\u0000");
    });

    it("a NUL in a path's id is an unknown id (404), never a 500", async () => {
      for (const url of [
        "/api/papers/%00",
        "/api/papers/bad%00id/rubric/nodes",
        `/api/papers/${DEMO_PAPER_ID}/rubric/nodes/%00/history`,
        "/api/gradings/%00",
      ]) {
        const answer = await api<ErrorAnswer>(studio.url, studio.staff, "GET", url);
        expect({ url, status: answer.status, code: answer.body?.error?.code }).toEqual({
          url,
          status: 404,
          code: "not_found",
        });
      }
      // Signed out, it is still "sign in" first.
      expect((await api(studio.url, "", "GET", "/api/papers/%00")).status).toBe(401);
    });
  });
}

inputSuite("pglite");
if (process.env.DATABASE_URL) inputSuite("postgres");
else if (process.env.CI === "true") {
  describe("hostile input on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set: the PostgreSQL input tests cannot run");
    });
  });
} else describe.skip("hostile input on postgres (set DATABASE_URL to run)", () => it("needs DATABASE_URL", () => {}));
