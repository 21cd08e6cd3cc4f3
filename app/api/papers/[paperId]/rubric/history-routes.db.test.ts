import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { addPaperMember } from "@/db/queries/papers";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { createUser } from "@/db/queries/users";
import { importPaperFolder } from "@/server/papers/import";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";

// The session is the cookie's business (next-auth); here each request says who sends it.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("@/server/auth/session", () => ({
  getRequestSession: async () => (await import("@/test/mock-session")).liveSessionOf(session.userId),
}));

const tree = await import("./tree/route");
const treeRestore = await import("./tree/restore/route");
const deleted = await import("./deleted/route");
const revisions = await import("./revisions/route");

type Handler = (req: NextRequest, ctx: { params: Promise<{ paperId: string }> }) => Promise<Response>;

describe.each(testDatabaseKinds())("history routes on %s", (kind) => {
  let handle: DbHandle;
  const paperId = "routes-demo";
  const users: Record<"author" | "grader" | "outsider", string> = { author: "", grader: "", outsider: "" };

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    // The routes' getDb() answers the test database.
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = Promise.resolve(handle);
    const { files } = readPaperFolder(path.join(process.cwd(), "rubrics", "demo"));
    const staff = await createUser(handle.db, { email: "staff@example.org", isStaff: true });
    await importPaperFolder(handle, { files, paperId, userId: staff.id, source: "t" });
    for (const role of ["author", "grader", "outsider"] as const) {
      users[role] = (await createUser(handle.db, { email: `${role}@example.org`, name: role })).id;
      if (role !== "outsider")
        await addPaperMember(handle.db, { paperId, email: `${role}@example.org`, role, addedBy: staff.id });
    }
    const rubricId = (await getRubricByPaperId(handle.db, paperId))!.id;
    const leaf = (await getLiveNodeRows(handle.db, rubricId)).find((r) => r.parentKey !== null)!;
    await applyRubricOperation(handle, {
      paperId,
      userId: users.author,
      request: { clientOpId: "del", baseRevision: 1, op: { kind: "delete", keys: [leaf.key] } },
    });
  });
  afterAll(async () => {
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = undefined;
    await handle?.close();
  });

  async function call(handler: Handler, as: keyof typeof users | null, url: string, body?: unknown) {
    session.userId = as ? users[as] : null;
    const req = new NextRequest(
      `http://127.0.0.1${url}`,
      body === undefined
        ? {}
        : { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } },
    );
    const res = await handler(req, { params: Promise.resolve({ paperId }) });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string } },
    };
  }

  const base = `/api/papers/${paperId}/rubric`;

  it("answers 401 signed out and 403 to a non-member, on every history route, without rubric text", async () => {
    const demoText = fs.readFileSync(path.join(process.cwd(), "rubrics", "demo", "rubric.json"), "utf8");
    const rootText = (JSON.parse(demoText) as { requirements: string }).requirements;
    const routes: [Handler, string, unknown?][] = [
      [tree.GET, `${base}/tree?revision=1`],
      [deleted.GET, `${base}/deleted`],
      [revisions.GET, `${base}/revisions`],
      [treeRestore.POST, `${base}/tree/restore`, { revision: 1 }],
    ];
    for (const [handler, url, body] of routes) {
      const signedOut = await call(handler, null, url, body);
      expect([url, signedOut.status, signedOut.body.error?.code]).toEqual([url, 401, "unauthorized"]);
      const outsider = await call(handler, "outsider", url, body);
      expect([url, outsider.status, outsider.body.error?.code]).toEqual([url, 403, "forbidden"]);
      expect(JSON.stringify(outsider.body)).not.toContain(rootText);
    }
    // Graders see the history but cannot restore.
    expect((await call(treeRestore.POST, "grader", `${base}/tree/restore`, { revision: 1 })).status).toBe(403);
  });

  it("serves the tree as of a revision, and refuses a bad or future one with 400 and why", async () => {
    const ok = await call(tree.GET, "grader", `${base}/tree?revision=1`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ revision: 1, currentRevision: 2 });
    expect((ok.body.nodes as unknown[]).length).toBe(33);
    expect(((await call(tree.GET, "author", `${base}/tree?revision=2`)).body.nodes as unknown[]).length).toBeLessThan(
      33,
    );
    for (const bad of ["", "?revision=", "?revision=abc", "?revision=-1", "?revision=1.5", "?revision=1e3"]) {
      const res = await call(tree.GET, "author", `${base}/tree${bad}`);
      expect([bad, res.status, res.body.error?.code]).toEqual([bad, 400, "bad_request"]);
      expect(res.body.error?.message).toMatch(/^Revision /);
    }
    const future = await call(tree.GET, "author", `${base}/tree?revision=3`);
    expect(future.status).toBe(400);
    expect(future.body.error?.message).toBe("Revision 3 does not exist yet: the rubric is at revision 2");
    expect((await call(treeRestore.POST, "author", `${base}/tree/restore`, { revision: "x" })).status).toBe(400);
    expect((await call(treeRestore.POST, "author", `${base}/tree/restore`, { revision: 9 })).status).toBe(400);
  });

  it("lists deleted subtrees and revisions, and restores a revision for an author", async () => {
    const list = await call(deleted.GET, "grader", `${base}/deleted`);
    expect(list.status).toBe(200);
    expect(list.body.deleted).toMatchObject([
      { deletedRevision: 2, deletedBy: { name: "author" }, nodeCount: expect.any(Number) },
    ]);
    const log = await call(revisions.GET, "grader", `${base}/revisions?limit=1`);
    expect(log.body).toMatchObject({
      currentRevision: 2,
      revisions: [{ revision: 2, kind: "delete", user: { name: "author" } }],
    });
    expect((await call(revisions.GET, "grader", `${base}/revisions?before=x`)).status).toBe(400);
    const restored = await call(treeRestore.POST, "author", `${base}/tree/restore`, { revision: 1 });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ revision: 3, inverse: { kind: "batch" } });
    const same = await call(treeRestore.POST, "author", `${base}/tree/restore`, { revision: 3 });
    expect([same.status, same.body.error?.message]).toEqual([409, "The live rubric already equals revision 3"]);
  });
});
