import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { addPaperMember, getPaperById } from "@/db/queries/papers";
import { getRubricReview } from "@/db/queries/rubric-review";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { createUser } from "@/db/queries/users";
import { exportRubricJson } from "@/server/papers/export";
import { changeRubricStatus } from "@/server/rubrics/change-rubric-status";
import { startSession } from "@/server/auth/sessions";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";

// The session is the cookie's business (next-auth); here each request says which session sends it.
const session = vi.hoisted(() => ({ current: null as { userId: string; sessionId: string } | null }));
vi.mock("@/server/auth/session", () => ({ getRequestSession: async () => session.current }));

const importRoute = await import("./route");
const rubricRoute = await import("../papers/[paperId]/rubric/route");
const importPreviewRoute = await import("./preview/route");
const rubricPreviewRoute = await import("../papers/[paperId]/rubric/preview/route");

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const demoFile = (name: string) => fs.readFileSync(path.join(DEMO_DIR, name), "utf8");
const DEMO_RUBRIC = demoFile("rubric.json");

/** The demo rubric with one change made by `edit`, as a file's text. */
function rubricWith(
  edit: (tree: { sub_tasks: { weight: unknown; sub_tasks: { weight: unknown }[] }[] }) => void,
): string {
  const tree = JSON.parse(DEMO_RUBRIC);
  edit(tree);
  return JSON.stringify(tree, null, 4);
}

/** A multipart form like the studio's upload: text fields, and files under their folder names. */
function form(fields: Record<string, string>, files: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  for (const [name, text] of Object.entries(files)) data.set(name, new File([text], name));
  return data;
}

type Body = Record<string, unknown> & {
  error?: { code: string; message: string; details: { path: string; message: string }[] };
};
type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

describe.each(testDatabaseKinds())("rubric upload routes on %s", (kind) => {
  let handle: DbHandle;
  const users: Record<"staff" | "author" | "grader" | "outsider", string> = {
    staff: "",
    author: "",
    grader: "",
    outsider: "",
  };
  const sessions: Partial<Record<keyof typeof users, string>> = {};
  const paperId = "upload-demo";

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    // The routes' getDb() answers the test database.
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = Promise.resolve(handle);
    users.staff = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    for (const role of ["author", "grader", "outsider"] as const) {
      users[role] = (await createUser(handle.db, { email: `${role}@example.org`, name: role })).id;
    }
    for (const who of Object.keys(users) as (keyof typeof users)[])
      sessions[who] = await startSession(handle, users[who]);
  });
  afterAll(async () => {
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = undefined;
    await handle?.close();
  });

  async function send<P>(
    handler: Handler<P>,
    as: keyof typeof users | null,
    method: string,
    url: string,
    body: FormData | string,
    params: P,
  ) {
    session.current = as ? { userId: users[as], sessionId: sessions[as]! } : null;
    const init =
      typeof body === "string" ? { method, body, headers: { "content-type": "application/json" } } : { method, body };
    const res = await handler(new NextRequest(`http://127.0.0.1${url}`, init), { params: Promise.resolve(params) });
    return { status: res.status, body: (await res.json()) as Body };
  }
  const postImport = (as: keyof typeof users | null, body: FormData | string) =>
    send(importRoute.POST, as, "POST", "/api/import", body, {});
  const putRubric = (as: keyof typeof users | null, body: FormData | string) =>
    send(rubricRoute.PUT, as, "PUT", `/api/papers/${paperId}/rubric`, body, { paperId });
  const exported = () => exportRubricJson(handle, paperId, { force: true });

  describe("POST /api/import", () => {
    it("creates a paper from an uploaded folder (201), then replaces its rubric as a new revision (200)", async () => {
      const folder = form(
        { paperId },
        {
          "rubric.json": DEMO_RUBRIC,
          "config.yaml": demoFile("config.yaml"),
          "blacklist.txt": demoFile("blacklist.txt"),
        },
      );
      const created = await postImport("staff", folder);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ paperId, createdPaper: true, replaced: false, revision: 1 });
      const paper = await getPaperById(handle.db, paperId);
      expect(paper?.title).toBe("Warmup-Free Adaptive Gradient Clipping for Small Transformers");
      expect(paper?.blacklist.length).toBeGreaterThan(0);
      expect(await exported()).toBe(DEMO_RUBRIC);

      const again = await postImport(
        "staff",
        form({ paperId, expectedRevision: "1" }, { rubric: rubricWith((t) => (t.sub_tasks[0].weight = 3)) }),
      );
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ paperId, createdPaper: false, replaced: true, revision: 2 });
      expect(JSON.parse(await exported()).sub_tasks[0].weight).toBe(3);
    });

    it("names the paper from config.yaml when the form names none, and takes a bare rubric.json body", async () => {
      const byConfig = await postImport(
        "staff",
        form({}, { "rubric.json": DEMO_RUBRIC, "config.yaml": "id: from-config\ntitle: From config\n" }),
      );
      expect([byConfig.status, byConfig.body.paperId]).toEqual([201, "from-config"]);
      // A bare rubric.json has no paper id to go by.
      const bare = await postImport("staff", DEMO_RUBRIC);
      expect([bare.status, bare.body.error?.code, bare.body.error?.message]).toEqual([
        400,
        "bad_request",
        "Name the paper: give a paper id, or a config.yaml with an id",
      ]);
    });

    it("refuses a bad file with the place of the problem, and writes nothing", async () => {
      const before = await exported();
      const badWeight = await postImport(
        "staff",
        form({ paperId }, { "rubric.json": rubricWith((t) => (t.sub_tasks[1].sub_tasks[0].weight = -1)) }),
      );
      expect([badWeight.status, badWeight.body.error?.code]).toEqual([422, "invalid_rubric"]);
      expect(badWeight.body.error?.message).toMatch(
        /^rubric\.json is not a valid rubric: sub_tasks\[1\]\.sub_tasks\[0\]\.weight: must be a number >= 0/,
      );
      expect(badWeight.body.error?.details).toContainEqual(
        expect.objectContaining({ path: "sub_tasks[1].sub_tasks[0].weight" }),
      );

      const notJson = await postImport("staff", form({ paperId }, { "rubric.json": '{"id": "a",\n  "weight": }' }));
      expect([notJson.status, notJson.body.error?.code]).toEqual([422, "invalid_rubric"]);
      expect(notJson.body.error?.message).toMatch(/line 2, column \d+/);

      const badConfig = await postImport(
        "staff",
        form({}, { "rubric.json": DEMO_RUBRIC, "config.yaml": "id: [unclosed\n" }),
      );
      expect([badConfig.status, badConfig.body.error?.details?.[0]?.path]).toEqual([422, "config.yaml"]);

      const noRubric = await postImport("staff", form({ paperId }, { "config.yaml": demoFile("config.yaml") }));
      expect([noRubric.status, noRubric.body.error?.code, noRubric.body.error?.details]).toEqual([
        400,
        "bad_request",
        [{ path: "rubric.json", message: "is required" }],
      ]);

      const badId = await postImport("staff", form({ paperId: "Not A Slug!" }, { "rubric.json": DEMO_RUBRIC }));
      expect([badId.status, badId.body.error?.code, badId.body.error?.details?.[0]?.path]).toEqual([
        400,
        "bad_request",
        "paperId",
      ]);
      expect(badId.body.error?.message).toMatch(/^The paper id "Not A Slug!" \(from the --paper\)/);

      session.current = { userId: users.staff, sessionId: sessions.staff! };
      const plain = await importRoute.POST(
        new NextRequest("http://127.0.0.1/api/import", {
          method: "POST",
          body: "x",
          headers: { "content-type": "text/plain" },
        }),
        {
          params: Promise.resolve({}),
        },
      );
      expect(plain.status).toBe(415);

      expect(await exported()).toBe(before);
      expect(await getPaperById(handle.db, "Not A Slug!")).toBeNull();
    });

    it("answers 401 signed out and 403 to anyone but staff, and imports nothing", async () => {
      const upload = () => form({ paperId: "not-by-you" }, { "rubric.json": DEMO_RUBRIC });
      const signedOut = await postImport(null, upload());
      expect([signedOut.status, signedOut.body.error?.code]).toEqual([401, "unauthorized"]);
      await addPaperMember(handle.db, { paperId, email: "author@example.org", role: "author", addedBy: users.staff });
      for (const who of ["author", "outsider"] as const) {
        const refused = await postImport(who, upload());
        expect([who, refused.status, refused.body.error?.code]).toEqual([who, 403, "forbidden"]);
      }
      expect(await getPaperById(handle.db, "not-by-you")).toBeNull();
    });
  });

  describe("PUT /api/papers/<id>/rubric (multipart)", () => {
    beforeAll(async () => {
      await addPaperMember(handle.db, { paperId, email: "author@example.org", role: "author", addedBy: users.staff });
      await addPaperMember(handle.db, { paperId, email: "grader@example.org", role: "grader", addedBy: users.staff });
    });

    it("replaces the rubric with an uploaded rubric.json as one new revision, and a signed-off rubric becomes a draft", async () => {
      const { id: rubricId, revision } = (await getRubricByPaperId(handle.db, paperId))!;
      await changeRubricStatus(handle, {
        paperId,
        action: "sign_off",
        revision,
        userId: users.staff,
        userLabel: "staff",
      });
      const edited = rubricWith((t) => (t.sub_tasks[0].weight = 11));
      const res = await putRubric("author", form({ expectedRevision: String(revision) }, { "rubric.json": edited }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ paperId, createdPaper: false, replaced: true, revision: revision + 1 });
      expect(JSON.parse(await exported()).sub_tasks[0].weight).toBe(11);
      expect(await getRubricReview(handle.db, rubricId)).toMatchObject({ status: "draft", revision: revision + 1 });
    });

    it("uploads to the paper in the URL, whatever paperId or config.yaml the form names", async () => {
      const res = await putRubric(
        "author",
        form({ paperId: "elsewhere", replace: "true" }, { rubric: DEMO_RUBRIC, "config.yaml": "id: elsewhere-too\n" }),
      );
      expect([res.status, res.body.paperId]).toEqual([200, paperId]);
      expect(await getPaperById(handle.db, "elsewhere")).toBeNull();
      expect(await getPaperById(handle.db, "elsewhere-too")).toBeNull();
      expect(await exported()).toBe(DEMO_RUBRIC);
    });

    it("refuses a bad file with the place of the problem, and keeps the rubric", async () => {
      const before = await exported();
      const { revision } = (await getRubricByPaperId(handle.db, paperId))!;
      const badId = await putRubric(
        "author",
        form({}, { "rubric.json": rubricWith((t) => delete (t.sub_tasks[2] as { id?: string }).id) }),
      );
      expect([badId.status, badId.body.error?.code]).toEqual([422, "invalid_rubric"]);
      expect(badId.body.error?.message).toMatch(/sub_tasks\[2\]\.id: /);
      const empty = await putRubric("author", form({ note: "no file" }));
      expect([empty.status, empty.body.error?.details]).toEqual([
        400,
        [{ path: "rubric.json", message: "is required" }],
      ]);
      expect(await exported()).toBe(before);
      expect((await getRubricByPaperId(handle.db, paperId))!.revision).toBe(revision);
    });

    it("answers 401 signed out, 403 to a non-member and to a grader, and keeps the rubric", async () => {
      const before = await exported();
      const upload = () => form({}, { "rubric.json": rubricWith((t) => (t.sub_tasks[0].weight = 99)) });
      const signedOut = await putRubric(null, upload());
      expect([signedOut.status, signedOut.body.error?.code]).toEqual([401, "unauthorized"]);
      const outsider = await putRubric("outsider", upload());
      expect([outsider.status, outsider.body.error?.message]).toEqual([403, "You are not a member of this paper"]);
      const grader = await putRubric("grader", upload());
      expect([grader.status, grader.body.error?.message]).toEqual([
        403,
        "Your role on this paper (grader) cannot edit its rubric",
      ]);
      expect(await exported()).toBe(before);
    });
  });

  describe("previews, and replacing only what was confirmed", () => {
    const id = "preview-demo";
    const live = async () => (await getRubricByPaperId(handle.db, id))!.revision;
    const exportedHere = () => exportRubricJson(handle, id, { force: true });
    // One leaf of the second section removed, the first section's weight changed.
    const edited = rubricWith((t) => {
      t.sub_tasks[0].weight = 7;
      t.sub_tasks[1].sub_tasks.pop();
    });
    // The requirements of the removed subtree, in pre-order.
    type Node = { requirements: string; sub_tasks: Node[] };
    const preorder = (n: Node): string[] => [n.requirements, ...n.sub_tasks.flatMap(preorder)];
    const removedSubtree = preorder(JSON.parse(DEMO_RUBRIC).sub_tasks[1].sub_tasks.at(-1));
    const previewImport = (body: FormData) =>
      send(importPreviewRoute.POST, "staff", "POST", "/api/import/preview", body, {});
    const previewRubric = (as: keyof typeof users, body: FormData) =>
      send(rubricPreviewRoute.POST, as, "POST", `/api/papers/${id}/rubric/preview`, body, { paperId: id });
    const putHere = (as: keyof typeof users, body: FormData | string, query = "") =>
      send(rubricRoute.PUT, as, "PUT", `/api/papers/${id}/rubric${query}`, body, { paperId: id });

    it("a new paper: the preview says it is created and replaces nothing, and the import needs no confirmation", async () => {
      const preview = await previewImport(form({ paperId: id }, { "rubric.json": DEMO_RUBRIC }));
      expect(preview.status).toBe(200);
      expect(preview.body).toMatchObject({ paperId: id, createsPaper: true, replaces: false, revision: 0, diff: null });
      expect(await getPaperById(handle.db, id)).toBeNull();
      const created = await postImport("staff", form({ paperId: id }, { "rubric.json": DEMO_RUBRIC }));
      expect([created.status, created.body.revision]).toEqual([201, 1]);
      await addPaperMember(handle.db, {
        paperId: id,
        email: "author@example.org",
        role: "author",
        addedBy: users.staff,
      });
    });

    it("an existing paper: the preview shows the nodes removed and changed and the paper fields, and writes nothing", async () => {
      const revision = await live();
      const preview = await previewImport(
        form({ paperId: id }, { "rubric.json": edited, "config.yaml": `id: ${id}\ntitle: A new title\n` }),
      );
      expect(preview.status).toBe(200);
      expect(preview.body).toMatchObject({
        paperId: id,
        createsPaper: false,
        replaces: true,
        revision,
        paperFields: ["title"],
      });
      const diff = preview.body.diff as {
        added: unknown[];
        removed: { requirements: string; parentKey: string }[];
        changed: { fields: string[] }[];
      };
      expect(diff.added).toEqual([]);
      expect(diff.removed.map((r) => r.requirements)).toEqual(removedSubtree);
      expect(diff.changed.map((c) => c.fields)).toEqual([["weight"]]);
      // The parents of the removed nodes come along, so the dialog can say where each was.
      const parents = preview.body.parentRows as { before: { key: string }[] };
      const removedKeys = new Set(diff.removed.map((r) => (r as unknown as { key: string }).key));
      const outside = diff.removed.map((r) => r.parentKey).filter((k) => !removedKeys.has(k));
      expect(parents.before.map((r) => r.key)).toContain(outside[0]);
      expect(await live()).toBe(revision);
      expect(await exportedHere()).toBe(DEMO_RUBRIC);
      expect((await getPaperById(handle.db, id))?.title).toBe(id);

      // The same preview on the paper page, for its author; a grader may not.
      const own = await previewRubric("author", form({}, { "rubric.json": edited }));
      expect([own.status, own.body.replaces, own.body.revision, own.body.paperFields]).toEqual([
        200,
        true,
        revision,
        [],
      ]);
      const grader = await previewRubric("grader", form({}, { "rubric.json": edited }));
      expect(grader.status).toBe(403);
    });

    it("an import that confirmed nothing is refused with 409 and the rubric is kept", async () => {
      const revision = await live();
      for (const res of [
        await postImport("staff", form({ paperId: id }, { "rubric.json": edited })),
        await putHere("author", form({}, { "rubric.json": edited })),
        await putHere("author", edited),
      ]) {
        expect([res.status, res.body.error?.code, res.body.error?.details?.[0]?.path]).toEqual([
          409,
          "conflict",
          "expectedRevision",
        ]);
      }
      const badNumber = await putHere("author", form({ expectedRevision: "latest" }, { "rubric.json": edited }));
      expect([badNumber.status, badNumber.body.error?.details?.[0]?.path]).toEqual([400, "expectedRevision"]);
      expect(await live()).toBe(revision);
      expect(await exportedHere()).toBe(DEMO_RUBRIC);
    });

    it("a confirmation against the live revision replaces; one against an older revision is refused with 409", async () => {
      const seen = (await previewRubric("author", form({}, { "rubric.json": edited }))).body.revision as number;
      // Someone else replaces the rubric after the preview (a script, with replace=true).
      const other = await putHere(
        "author",
        rubricWith((t) => (t.sub_tasks[0].weight = 5)),
        "?replace=true",
      );
      expect([other.status, other.body.revision]).toEqual([200, seen + 1]);
      const stale = await putHere("author", form({ expectedRevision: String(seen) }, { "rubric.json": edited }));
      expect([stale.status, stale.body.error?.code]).toEqual([409, "conflict"]);
      expect(stale.body.error?.message).toContain(`revision ${seen}, now ${seen + 1}`);
      expect(JSON.parse(await exportedHere()).sub_tasks[0].weight).toBe(5);
      const staleFolder = await postImport(
        "staff",
        form({ paperId: id, expectedRevision: String(seen) }, { "rubric.json": edited }),
      );
      expect(staleFolder.status).toBe(409);

      // Confirmed against what is there now: replaced as one new revision.
      const confirmed = await putHere(
        "author",
        form({ expectedRevision: String(seen + 1) }, { "rubric.json": edited }),
      );
      expect([confirmed.status, confirmed.body.replaced, confirmed.body.revision]).toEqual([200, true, seen + 2]);
      expect(JSON.parse(await exportedHere())).toEqual(JSON.parse(edited));
      const folder = await postImport(
        "staff",
        form({ paperId: id, expectedRevision: String(seen + 2) }, { "rubric.json": DEMO_RUBRIC }),
      );
      expect([folder.status, folder.body.revision]).toEqual([200, seen + 3]);
      expect(await exportedHere()).toBe(DEMO_RUBRIC);
    });
  });
});
