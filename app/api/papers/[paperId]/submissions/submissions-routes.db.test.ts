import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { addPaperMember, createPaper } from "@/db/queries/papers";
import { listSubmissionFiles } from "@/db/queries/submissions";
import { createUser } from "@/db/queries/users";
import { agents, apiTokens, blobs, submissions } from "@/db/schema";
import { LocalBlobStore } from "@/server/blobs/local-blob-store";
import { openBlob, storeBlob } from "@/server/blobs/store-blob";
import { makeTarGz, makeZip, type TestEntry } from "@/server/submissions/archive.testutil";
import { createApiToken } from "@/server/auth/api-tokens";
import { startSession } from "@/server/auth/sessions";
import { setDisabled } from "@/server/users/set-disabled";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";

// The session is the cookie's business (next-auth); here each request says which session sends it.
const session = vi.hoisted(() => ({ current: null as { userId: string; sessionId: string } | null }));
vi.mock("@/server/auth/session", () => ({ getRequestSession: async () => session.current }));

const submissionsRoute = await import("./route");
const tokensRoute = await import("../../../users/me/tokens/route");
const tokenRoute = await import("../../../users/me/tokens/[tokenId]/route");

type Body = Record<string, unknown> & { error?: { code: string; message: string; details: unknown[] } };
type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;
type Who = "staff" | "author" | null;

const REPO: TestEntry[] = [
  { name: "repo/", type: "directory" },
  { name: "repo/reproduce.sh", data: "python train.py\n" },
  { name: "repo/train.py", data: "print('training')\n" },
  { name: "repo/src/model.py", data: "class Model: pass\n" },
  { name: "repo/reproduce.log", data: "an old run\n" },
  { name: "repo/.git/HEAD", data: "ref: refs/heads/main\n" },
];
const EXPANDED = REPO.reduce((sum, e) => sum + Buffer.byteLength(e.data ?? ""), 0);

describe.each(testDatabaseKinds())("submission upload and API tokens on %s", (kind) => {
  let handle: DbHandle;
  let blobDir: string;
  const users = { staff: "", author: "" };
  const sessions = { staff: "", author: "" };
  const paperId = "upload-paper";

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = Promise.resolve(handle);
    blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-upload-blobs-"));
    (globalThis as { __rubricStudioBlobStore?: LocalBlobStore }).__rubricStudioBlobStore = new LocalBlobStore(blobDir);
    users.staff = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    users.author = (await createUser(handle.db, { email: "author@example.org", name: "Author" })).id;
    sessions.staff = await startSession(handle, users.staff);
    sessions.author = await startSession(handle, users.author);
    await createPaper(
      handle.db,
      { id: paperId, title: "Upload paper", paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] },
      users.staff,
    );
    await addPaperMember(handle.db, { paperId, email: "author@example.org", role: "author", addedBy: users.staff });
  });
  afterAll(async () => {
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = undefined;
    (globalThis as { __rubricStudioBlobStore?: unknown }).__rubricStudioBlobStore = undefined;
    await handle?.close();
    fs.rmSync(blobDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    delete process.env.SUBMISSION_MAX_ARCHIVE_BYTES;
    delete process.env.SUBMISSION_MAX_FILES;
  });

  async function send<P>(
    handler: Handler<P>,
    init: { as?: Who; bearer?: string; method: string; url: string; body?: BodyInit; headers?: Record<string, string> },
    params: P,
  ) {
    session.current = init.as ? { userId: users[init.as], sessionId: sessions[init.as] } : null;
    const headers: Record<string, string> = { ...init.headers };
    if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
    const res = await handler(
      new NextRequest(`http://127.0.0.1${init.url}`, { method: init.method, body: init.body, headers }),
      { params: Promise.resolve(params) },
    );
    return { status: res.status, body: (await res.json()) as Body };
  }
  const upload = (
    query: string,
    data: Buffer,
    who: { as?: Who; bearer?: string } = { as: "staff" },
    type = "application/gzip",
  ) =>
    send(
      submissionsRoute.POST,
      {
        ...who,
        method: "POST",
        url: `/api/papers/${paperId}/submissions?${query}`,
        body: new Uint8Array(data),
        headers: { "content-type": type },
      },
      { paperId },
    );
  const list = (who: Who = "staff") =>
    send(submissionsRoute.GET, { as: who, method: "GET", url: `/api/papers/${paperId}/submissions` }, { paperId });

  const blobFiles = () =>
    fs
      .readdirSync(blobDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  const counts = async () => ({
    blobs: (await handle.db.select().from(blobs)).length,
    submissions: (await handle.db.select().from(submissions)).length,
    agents: (await handle.db.select().from(agents)).length,
    blobFiles: blobFiles().length,
  });
  const tempUploads = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith("rs-submission-")).length;

  it("stores a raw .tar.gz upload: the blob once, the listing, the expanded size, the log; the agent is created", async () => {
    const data = await makeTarGz(REPO);
    const res = await upload("agent=Upload%20Agent&run=1&name=repo.tar.gz", data);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ files: 3, expandedBytes: EXPANDED, replaced: false });
    expect(res.body.jobId).toBeUndefined();
    const [row] = await handle.db
      .select()
      .from(submissions)
      .where(eq(submissions.id, res.body.submissionId as string));
    expect(row).toMatchObject({
      archiveName: "repo.tar.gz",
      archiveSha256: res.body.sha256,
      archiveExpandedBytes: EXPANDED,
      archiveFileCount: 3,
      reproduceLog: "an old run\n",
      variant: "full",
      runIndex: 1,
    });
    expect((await listSubmissionFiles(handle.db, row.id)).map((f) => f.path)).toEqual([
      "reproduce.sh",
      "src/model.py",
      "train.py",
    ]);
    const [blob] = await handle.db
      .select()
      .from(blobs)
      .where(eq(blobs.sha256, res.body.sha256 as string));
    expect(blob.bytes).toBe(data.length);
    expect(blobFiles()).toContain(res.body.sha256);
  });

  it("answers 409 for a run that already has an archive, before reading it; replace=1 replaces it", async () => {
    const data = await makeTarGz([...REPO, { name: "repo/extra.py", data: "x = 1\n" }]);
    const refused = await upload("agent=Upload%20Agent&run=1", data);
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toMatch(/already has an archive.*replace/);
    const replaced = await upload("agent=Upload%20Agent&run=1&replace=1", data);
    expect(replaced.status).toBe(201);
    expect(replaced.body).toMatchObject({ files: 4, replaced: true });
  });

  const malicious: [string, Buffer | Promise<Buffer>, RegExp, number][] = [
    [
      "a path with ..",
      makeTarGz([...REPO, { name: "repo/../../etc/cron.d/x", data: "x" }]),
      /entry "repo\/..\/..\/etc\/cron.d\/x" has a \.\. segment in its path/,
      400,
    ],
    [
      "a symlink out of the tree",
      makeTarGz([...REPO, { name: "repo/home", type: "symlink", linkname: "../../../home" }]),
      /entry "repo\/home" is a link to "..\/..\/..\/home"/,
      400,
    ],
    ["a fifo", makeTarGz([...REPO, { name: "repo/pipe", type: "fifo" }]), /entry "repo\/pipe" is a fifo/, 400],
    [
      "a zip entry with an absolute path",
      makeZip([...REPO, { name: "/etc/passwd", data: "x" }]),
      /entry "\/etc\/passwd" has an absolute path/,
      400,
    ],
  ];
  for (const [what, archive, message, status] of malicious) {
    it(`refuses an archive with ${what}, naming the entry, and stores nothing`, async () => {
      const before = await counts();
      const temps = tempUploads();
      const res = await upload(`agent=Evil%20Agent&run=1&name=evil`, await archive);
      expect(res.status).toBe(status);
      expect(res.body.error!.message).toMatch(message);
      expect(await counts()).toEqual(before);
      expect(tempUploads()).toBe(temps);
    });
  }

  it("refuses more files than SUBMISSION_MAX_FILES (413) and an archive over SUBMISSION_MAX_ARCHIVE_BYTES (413), storing nothing", async () => {
    const before = await counts();
    process.env.SUBMISSION_MAX_FILES = "3";
    const tooMany = await upload("agent=Evil%20Agent&run=2", await makeTarGz(REPO));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error!.message).toMatch(/more than 3 entries \(at entry "repo\/src\/model.py"\)/);
    delete process.env.SUBMISSION_MAX_FILES;
    process.env.SUBMISSION_MAX_ARCHIVE_BYTES = "100";
    const tooBig = await upload("agent=Evil%20Agent&run=2", await makeTarGz(REPO));
    expect(tooBig.status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it("refuses bad fields with a 400 naming them, and an unknown body type with a 415", async () => {
    const data = await makeTarGz(REPO);
    const noRun = await upload("agent=A", data);
    expect(noRun.status).toBe(400);
    expect(noRun.body.error!.details).toContainEqual(expect.objectContaining({ path: "run" }));
    expect((await upload("agent=A&run=1", data, { as: "staff" }, "text/plain")).status).toBe(415);
  });

  it("refuses to reproduce a Code-Dev run (400) and queues a reproduction of a full run, listed with its job", async () => {
    const data = await makeTarGz(REPO);
    const codeDev = await upload("agent=Upload%20Agent&run=1&variant=code-dev&reproduce=1", data);
    expect(codeDev.status).toBe(400);
    expect(codeDev.body.error!.details).toContainEqual(expect.objectContaining({ path: "reproduce" }));
    const res = await upload("agent=Upload%20Agent&run=3&reproduce=1", data);
    expect(res.status).toBe(201);
    expect(res.body.jobId).toEqual(expect.any(String));
    const listed = await list("author");
    expect(listed.status).toBe(200);
    const item = (
      listed.body.submissions as {
        id: string;
        latestJobId: string | null;
        latestJobStatus: string | null;
        archiveSha256: string | null;
      }[]
    ).find((s) => s.id === res.body.submissionId);
    expect(item).toMatchObject({
      latestJobId: res.body.jobId,
      latestJobStatus: "queued",
      archiveSha256: res.body.sha256,
    });
  });

  it("takes a small multipart form from a browser", async () => {
    const form = new FormData();
    form.set("agent", "Form Agent");
    form.set("run", "1");
    form.set("variant", "code-dev");
    form.set("archive", new File([new Uint8Array(makeZip(REPO))], "repo.zip"));
    const res = await send(
      submissionsRoute.POST,
      { as: "staff", method: "POST", url: `/api/papers/${paperId}/submissions`, body: form },
      { paperId },
    );
    expect(res.status).toBe(201);
    const [row] = await handle.db
      .select()
      .from(submissions)
      .where(eq(submissions.id, res.body.submissionId as string));
    expect(row).toMatchObject({ archiveName: "repo.zip", variant: "code-dev", archiveFileCount: 3 });
  });

  it("lets only staff upload: an author is refused (403) before anything is read", async () => {
    expect((await upload("agent=A&run=1", await makeTarGz(REPO), { as: "author" })).status).toBe(403);
    expect((await upload("agent=A&run=1", await makeTarGz(REPO), {})).status).toBe(401);
  });

  it("storeBlob puts a file in the store and records it once; openBlob reads it back", async () => {
    const file = path.join(blobDir, "..", `rs-store-blob-${kind}.txt`);
    fs.writeFileSync(file, "runner outputs");
    try {
      const first = await storeBlob(handle, file);
      expect(await storeBlob(handle, file)).toEqual(first);
      expect(await handle.db.select().from(blobs).where(eq(blobs.sha256, first.sha256))).toEqual([
        expect.objectContaining({ bytes: 14 }),
      ]);
      const chunks: Buffer[] = [];
      for await (const chunk of await openBlob(first.sha256)) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe("runner outputs");
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  describe("personal API tokens", () => {
    it("are made from a session (shown once), listed without the token, and act as their user over Bearer", async () => {
      const made = await send(
        tokensRoute.POST,
        {
          as: "staff",
          method: "POST",
          url: "/api/users/me/tokens",
          body: JSON.stringify({ name: "laptop" }),
          headers: { "content-type": "application/json" },
        },
        {},
      );
      expect(made.status).toBe(201);
      const token = made.body.token as string;
      expect(token).toMatch(/^rst_user_[A-Za-z0-9_-]{40,}$/);
      const [stored] = await handle.db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.id, (made.body.apiToken as { id: string }).id));
      expect(stored.tokenHash).not.toContain(token.slice(9));
      expect(stored.lastUsedAt).toBeNull();

      const listed = await send(tokensRoute.GET, { as: "staff", method: "GET", url: "/api/users/me/tokens" }, {});
      expect(JSON.stringify(listed.body)).not.toContain(token);
      expect(listed.body.tokens).toEqual([expect.objectContaining({ name: "laptop", revokedAt: null })]);

      // No cookie, and sent from another site: a token request is not a browser's, so no origin check applies.
      const res = await upload("agent=Token%20Agent&run=1", await makeTarGz(REPO), { bearer: token });
      expect(res.status).toBe(201);
      const [row] = await handle.db
        .select()
        .from(submissions)
        .where(eq(submissions.id, res.body.submissionId as string));
      expect(row.createdBy).toBe(users.staff);
      const [used] = await handle.db.select().from(apiTokens).where(eq(apiTokens.id, stored.id));
      expect(used.lastUsedAt).toBeInstanceOf(Date);
      // A second use within the minute does not write again.
      await send(
        submissionsRoute.GET,
        { bearer: token, method: "GET", url: `/api/papers/${paperId}/submissions` },
        { paperId },
      );
      const [again] = await handle.db.select().from(apiTokens).where(eq(apiTokens.id, stored.id));
      expect(again.lastUsedAt!.getTime()).toBe(used.lastUsedAt!.getTime());
    });

    it("carry their user's rights, no more: an author's token cannot upload (403) but lists the paper's submissions", async () => {
      const { token } = await createApiToken(handle, { userId: users.author, name: "author cli" });
      expect((await upload("agent=A&run=9", await makeTarGz(REPO), { bearer: token })).status).toBe(403);
      expect(
        (
          await send(
            submissionsRoute.GET,
            { bearer: token, method: "GET", url: `/api/papers/${paperId}/submissions` },
            { paperId },
          )
        ).status,
      ).toBe(200);
    });

    it("a cookie request from another site is still refused (403); the same with a token is let through", async () => {
      const { token } = await createApiToken(handle, { userId: users.staff, name: "cross" });
      const crossSite = { "sec-fetch-site": "cross-site", "content-type": "application/gzip" };
      const data = new Uint8Array(await makeTarGz(REPO));
      const byCookie = await send(
        submissionsRoute.POST,
        {
          as: "staff",
          method: "POST",
          url: `/api/papers/${paperId}/submissions?agent=X&run=1`,
          body: data,
          headers: crossSite,
        },
        { paperId },
      );
      expect(byCookie.status).toBe(403);
      expect(byCookie.body.error!.code).toBe("cross_origin");
      const byToken = await send(
        submissionsRoute.POST,
        {
          bearer: token,
          method: "POST",
          url: `/api/papers/${paperId}/submissions?agent=X&run=1`,
          body: data,
          headers: crossSite,
        },
        { paperId },
      );
      expect(byToken.status).toBe(201);
    });

    it("a revoked token, a disabled user's token, a runner or job token and junk are 401; the cookie is not read then", async () => {
      const { token, apiToken } = await createApiToken(handle, { userId: users.staff, name: "to revoke" });
      const get = (bearer: string, as: Who = null) =>
        send(
          submissionsRoute.GET,
          { as, bearer, method: "GET", url: `/api/papers/${paperId}/submissions` },
          { paperId },
        );
      expect((await get(token)).status).toBe(200);
      const revoked = await send(
        tokenRoute.DELETE,
        { bearer: token, method: "DELETE", url: `/api/users/me/tokens/${apiToken.id}` },
        { tokenId: apiToken.id },
      );
      expect(revoked.status).toBe(200);
      expect((await get(token)).status).toBe(401);
      // A live session beside a dead token does not rescue it.
      expect((await get(token, "staff")).status).toBe(401);
      for (const other of ["rst_runner_abc", "rst_job_x.y.z", "not-a-token", `rst_user_${"A".repeat(43)}`])
        expect((await get(other)).status).toBe(401);

      const disabledUser = await createUser(handle.db, { email: "leaving@example.org", isStaff: true });
      const leaving = await createApiToken(handle, { userId: disabledUser.id, name: "x" });
      expect((await get(leaving.token)).status).toBe(200);
      await setDisabled(handle, { userId: disabledUser.id, disabled: true, by: users.staff });
      expect((await get(leaving.token)).status).toBe(401);
    });

    it("revoking is for one's own tokens (404 otherwise); minting a token needs a session, not a token", async () => {
      const theirs = await createApiToken(handle, { userId: users.staff, name: "staff's" });
      const mine = await createApiToken(handle, { userId: users.author, name: "mine" });
      const del = (tokenId: string) =>
        send(
          tokenRoute.DELETE,
          { as: "author", method: "DELETE", url: `/api/users/me/tokens/${tokenId}` },
          { tokenId },
        );
      expect((await del(theirs.apiToken.id)).status).toBe(404);
      expect((await del("not-a-uuid")).status).toBe(404);
      const mint = await send(
        tokensRoute.POST,
        {
          bearer: mine.token,
          method: "POST",
          url: "/api/users/me/tokens",
          body: JSON.stringify({ name: "more" }),
          headers: { "content-type": "application/json" },
        },
        {},
      );
      expect(mint.status).toBe(403);
      const noName = await send(
        tokensRoute.POST,
        {
          as: "author",
          method: "POST",
          url: "/api/users/me/tokens",
          body: JSON.stringify({ name: " " }),
          headers: { "content-type": "application/json" },
        },
        {},
      );
      expect(noName.status).toBe(400);
      expect(noName.body.error!.details).toContainEqual(expect.objectContaining({ path: "name" }));
    });
  });
});
