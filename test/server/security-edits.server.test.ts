/**
 * An acknowledged change is never lost and a refused one changes nothing (issue 10, items 2 and 3),
 * against the built studio over HTTP on PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { DEMO_PAPER_ID, api, postOperation } from "./harness";
import { studioSuite } from "./studio-suite";

interface PaperAnswer {
  paper: { title: string; paperMarkdown: string; addendum: string; judgeAddendum: string; blacklist: string[] };
}

function editsSuite(kind: "pglite" | "postgres") {
  describe(`edits keep what they do not name, and refuse what they cannot apply (${kind})`, () => {
    const studio = studioSuite(kind, "security-edits");

    const nodes = async () =>
      (
        await api<{ revision: number; nodes: NodeRow[] }>(
          studio.url,
          studio.staff,
          "GET",
          `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`,
        )
      ).body;

    it("a PATCH of a paper's title keeps its text, addendum, judge addendum and blacklist", async () => {
      const paperUrl = `/api/papers/${DEMO_PAPER_ID}`;
      const texts = { paperMarkdown: "# The paper\n\nBody.", addendum: "An addendum", judgeAddendum: "For the judge" };
      // The blacklist is sent as blacklist.txt's text and kept as its lines.
      expect(
        (await api(studio.url, studio.staff, "PATCH", paperUrl, { ...texts, blacklist: "github.com/x/y\n" })).status,
      ).toBe(200);
      const full = { ...texts, blacklist: ["github.com/x/y"] };
      const patched = await api<PaperAnswer>(studio.url, studio.staff, "PATCH", paperUrl, {
        title: "Only the title changes",
      });
      expect(patched.status).toBe(200);
      const read = (await api<PaperAnswer>(studio.url, studio.staff, "GET", paperUrl)).body.paper;
      expect(read).toMatchObject({ title: "Only the title changes", ...full });
      expect(patched.body.paper).toMatchObject({ title: "Only the title changes", ...full });
    });

    it("a used client op id with another operation is a 409 that names clientOpId, and applies nothing", async () => {
      const before = await nodes();
      const leaf = before.nodes.find((n) => n.parentKey !== null)!;
      const clientOpId = crypto.randomUUID();
      const first = await postOperation(studio.url, studio.staff, DEMO_PAPER_ID, {
        clientOpId,
        baseRevision: before.revision,
        op: { kind: "update", key: leaf.key, fields: { weight: 3 } },
      });
      expect(first.status).toBe(200);
      // The same request again is a retry: answered as the first time, applied once.
      const retry = await postOperation(studio.url, studio.staff, DEMO_PAPER_ID, {
        clientOpId,
        baseRevision: before.revision,
        op: { kind: "update", key: leaf.key, fields: { weight: 3 } },
      });
      expect(retry).toMatchObject({ status: 200, body: { revision: first.body.revision } });
      const other = await postOperation(studio.url, studio.staff, DEMO_PAPER_ID, {
        clientOpId,
        baseRevision: before.revision,
        op: { kind: "update", key: leaf.key, fields: { weight: 7 } },
      });
      expect(other.status).toBe(409);
      expect(JSON.stringify(other.body)).toContain("clientOpId");
      const after = await nodes();
      expect(after.revision).toBe(first.body.revision);
      expect(after.nodes.find((n) => n.key === leaf.key)!.weight).toBe(3);
    });

    it("a base revision ahead of the rubric's is a 409 that names baseRevision, and applies nothing", async () => {
      const before = await nodes();
      const leaf = before.nodes.find((n) => n.parentKey !== null)!;
      const ahead = await postOperation(studio.url, studio.staff, DEMO_PAPER_ID, {
        clientOpId: crypto.randomUUID(),
        baseRevision: before.revision + 5,
        op: { kind: "update", key: leaf.key, fields: { weight: leaf.weight + 1 } },
      });
      expect(ahead.status).toBe(409);
      expect(JSON.stringify(ahead.body)).toContain("baseRevision");
      expect(await nodes()).toEqual(before);
    });
  });
}

editsSuite("pglite");
if (process.env.DATABASE_URL) editsSuite("postgres");
else if (process.env.CI === "true") {
  describe("edits on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set: the PostgreSQL edit tests cannot run");
    });
  });
} else describe.skip("edits on postgres (set DATABASE_URL to run)", () => it("needs DATABASE_URL", () => {}));
