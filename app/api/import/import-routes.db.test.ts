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
import { startSession } from "@/server/users/sessions";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";

// The session is the cookie's business (next-auth); here each request says which session sends it.
const session = vi.hoisted(() => ({ current: null as { userId: string; sessionId: string } | null }));
vi.mock("@/server/auth/session", () => ({ getRequestSession: async () => session.current }));

const importRoute = await import("./route");
const rubricRoute = await import("../papers/[paperId]/rubric/route");

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const demoFile = (name: string) => fs.readFileSync(path.join(DEMO_DIR, name), "utf8");
const DEMO_RUBRIC = demoFile("rubric.json");

/** The demo rubric with one change made by `edit`, as a file's text. */
function rubricWith(edit: (tree: { sub_tasks: { weight: unknown; sub_tasks: { weight: unknown }[] }[] }) => void): string {
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

type Body = Record<string, unknown> & { error?: { code: string; message: string; details: { path: string; message: string }[] } };
type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

describe.each(testDatabaseKinds())("rubric upload routes on %s", (kind) => {
  let handle: DbHandle;
  const users: Record<"staff" | "author" | "grader" | "outsider", string> = { staff: "", author: "", grader: "", outsider: "" };
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
    for (const who of Object.keys(users) as (keyof typeof users)[]) sessions[who] = await startSession(handle, users[who]);
  });
  afterAll(async () => {
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = undefined;
    await handle?.close();
  });

  async function send<P>(handler: Handler<P>, as: keyof typeof users | null, method: string, url: string, body: FormData | string, params: P) {
    session.current = as ? { userId: users[as], sessionId: sessions[as]! } : null;
    const init = typeof body === "string" ? { method, body, headers: { "content-type": "application/json" } } : { method, body };
    const res = await handler(new NextRequest(`http://127.0.0.1${url}`, init), { params: Promise.resolve(params) });
    return { status: res.status, body: (await res.json()) as Body };
  }
  const postImport = (as: keyof typeof users | null, body: FormData | string) => send(importRoute.POST, as, "POST", "/api/import", body, {});
  const putRubric = (as: keyof typeof users | null, body: FormData | string) =>
    send(rubricRoute.PUT, as, "PUT", `/api/papers/${paperId}/rubric`, body, { paperId });
  const exported = () => exportRubricJson(handle, paperId, { force: true });

  describe("POST /api/import", () => {
    it("creates a paper from an uploaded folder (201), then replaces its rubric as a new revision (200)", async () => {
      const folder = form({ paperId }, { "rubric.json": DEMO_RUBRIC, "config.yaml": demoFile("config.yaml"), "blacklist.txt": demoFile("blacklist.txt") });
      const created = await postImport("staff", folder);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ paperId, createdPaper: true, replaced: false, revision: 1 });
      const paper = await getPaperById(handle.db, paperId);
      expect(paper?.title).toBe("Warmup-Free Adaptive Gradient Clipping for Small Transformers");
      expect(paper?.blacklist.length).toBeGreaterThan(0);
      expect(await exported()).toBe(DEMO_RUBRIC);

      const again = await postImport("staff", form({ paperId }, { rubric: rubricWith((t) => (t.sub_tasks[0].weight = 3)) }));
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ paperId, createdPaper: false, replaced: true, revision: 2 });
      expect(JSON.parse(await exported()).sub_tasks[0].weight).toBe(3);
    });

    it("names the paper from config.yaml when the form names none, and takes a bare rubric.json body", async () => {
      const byConfig = await postImport("staff", form({}, { "rubric.json": DEMO_RUBRIC, "config.yaml": "id: from-config\ntitle: From config\n" }));
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
      const badWeight = await postImport("staff", form({ paperId }, { "rubric.json": rubricWith((t) => (t.sub_tasks[1].sub_tasks[0].weight = -1)) }));
      expect([badWeight.status, badWeight.body.error?.code]).toEqual([422, "invalid_rubric"]);
      expect(badWeight.body.error?.message).toMatch(/^rubric\.json is not a valid rubric: sub_tasks\[1\]\.sub_tasks\[0\]\.weight: must be a number >= 0/);
      expect(badWeight.body.error?.details).toContainEqual(expect.objectContaining({ path: "sub_tasks[1].sub_tasks[0].weight" }));

      const notJson = await postImport("staff", form({ paperId }, { "rubric.json": '{"id": "a",\n  "weight": }' }));
      expect([notJson.status, notJson.body.error?.code]).toEqual([422, "invalid_rubric"]);
      expect(notJson.body.error?.message).toMatch(/line 2, column \d+/);

      const badConfig = await postImport("staff", form({}, { "rubric.json": DEMO_RUBRIC, "config.yaml": "id: [unclosed\n" }));
      expect([badConfig.status, badConfig.body.error?.details?.[0]?.path]).toEqual([422, "config.yaml"]);

      const noRubric = await postImport("staff", form({ paperId }, { "config.yaml": demoFile("config.yaml") }));
      expect([noRubric.status, noRubric.body.error?.code, noRubric.body.error?.details]).toEqual([
        400,
        "bad_request",
        [{ path: "rubric.json", message: "is required" }],
      ]);

      const badId = await postImport("staff", form({ paperId: "Not A Slug!" }, { "rubric.json": DEMO_RUBRIC }));
      expect([badId.status, badId.body.error?.code, badId.body.error?.details?.[0]?.path]).toEqual([400, "bad_request", "paperId"]);
      expect(badId.body.error?.message).toMatch(/^The paper id "Not A Slug!" \(from the --paper\)/);

      session.current = { userId: users.staff, sessionId: sessions.staff! };
      const plain = await importRoute.POST(new NextRequest("http://127.0.0.1/api/import", { method: "POST", body: "x", headers: { "content-type": "text/plain" } }), {
        params: Promise.resolve({}),
      });
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
      await changeRubricStatus(handle, { paperId, action: "sign_off", revision, userId: users.staff, userLabel: "staff" });
      const edited = rubricWith((t) => (t.sub_tasks[0].weight = 11));
      const res = await putRubric("author", form({}, { "rubric.json": edited }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ paperId, createdPaper: false, replaced: true, revision: revision + 1 });
      expect(JSON.parse(await exported()).sub_tasks[0].weight).toBe(11);
      expect(await getRubricReview(handle.db, rubricId)).toMatchObject({ status: "draft", revision: revision + 1 });
    });

    it("uploads to the paper in the URL, whatever paperId or config.yaml the form names", async () => {
      const res = await putRubric("author", form({ paperId: "elsewhere" }, { rubric: DEMO_RUBRIC, "config.yaml": "id: elsewhere-too\n" }));
      expect([res.status, res.body.paperId]).toEqual([200, paperId]);
      expect(await getPaperById(handle.db, "elsewhere")).toBeNull();
      expect(await getPaperById(handle.db, "elsewhere-too")).toBeNull();
      expect(await exported()).toBe(DEMO_RUBRIC);
    });

    it("refuses a bad file with the place of the problem, and keeps the rubric", async () => {
      const before = await exported();
      const { revision } = (await getRubricByPaperId(handle.db, paperId))!;
      const badId = await putRubric("author", form({}, { "rubric.json": rubricWith((t) => delete (t.sub_tasks[2] as { id?: string }).id) }));
      expect([badId.status, badId.body.error?.code]).toEqual([422, "invalid_rubric"]);
      expect(badId.body.error?.message).toMatch(/sub_tasks\[2\]\.id: /);
      const empty = await putRubric("author", form({ note: "no file" }));
      expect([empty.status, empty.body.error?.details]).toEqual([400, [{ path: "rubric.json", message: "is required" }]]);
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
      expect([grader.status, grader.body.error?.message]).toEqual([403, "Your role on this paper (grader) cannot edit its rubric"]);
      expect(await exported()).toBe(before);
    });
  });
});
