import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { LocalBlobStore } from "@/server/blobs/local-blob-store";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { startSession } from "@/server/auth/sessions";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";

const session = vi.hoisted(() => ({ current: null as { userId: string; sessionId: string } | null }));
vi.mock("@/server/auth/session", () => ({ getRequestSession: async () => session.current }));

const submissionsRoute = await import("./route");
const submissionRoute = await import("../../../submissions/[submissionId]/route");
const rubricExportRoute = await import("../rubric/export/route");
const evaluationsRoute = await import("../../../evaluations/route");

type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;
const PAPER = "demo-adaptive-clipping";

describe.each(testDatabaseKinds())("the blacklist monitor and resources provided over the API on %s", (kind) => {
  let handle: DbHandle;
  let blobDir: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = Promise.resolve(handle);
    blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-blacklist-route-blobs-"));
    (globalThis as { __rubricStudioBlobStore?: LocalBlobStore }).__rubricStudioBlobStore = new LocalBlobStore(blobDir);
    const staff = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    session.current = { userId: staff, sessionId: await startSession(handle, staff) };
    const { files, folderName } = readPaperFolder(path.join(process.cwd(), "rubrics", "demo"));
    await importPaperFolder(handle, { files, folderName, userId: staff, source: "test" });
  });
  afterAll(async () => {
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = undefined;
    (globalThis as { __rubricStudioBlobStore?: unknown }).__rubricStudioBlobStore = undefined;
    await handle?.close();
    fs.rmSync(blobDir, { recursive: true, force: true });
  });

  async function send<P>(
    handler: Handler<P>,
    params: P,
    url: string,
    init: { method?: string; body?: BodyInit; headers?: Record<string, string> } = {},
  ) {
    const res = await handler(
      new NextRequest(`http://127.0.0.1${url}`, {
        method: init.method ?? "GET",
        body: init.body,
        headers: init.headers,
      }),
      { params: Promise.resolve(params) },
    );
    const text = await res.text();
    return {
      status: res.status,
      text,
      json: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null,
    };
  }

  it("a form's agentLog beside the archive flags the submission, and GET /api/submissions/<id> carries the matching lines", async () => {
    const form = new FormData();
    form.set(
      "archive",
      new Blob([new Uint8Array(await makeTarGz([{ name: "reproduce.sh", data: "echo hi\n" }]))]),
      "repo.tar.gz",
    );
    form.set("agentLog", new Blob(["start\nopen https://example-lab.github.io/wagc-demo/results.html\n"]), "agent.log");
    form.set("agent", "Form agent");
    form.set("run", "1");
    const created = await send(submissionsRoute.POST, { paperId: PAPER }, `/api/papers/${PAPER}/submissions`, {
      method: "POST",
      body: form,
    });
    expect(created.status).toBe(201);
    expect(created.json.blacklistHits).toBe(1);
    const id = created.json.submissionId as string;
    const read = await send(submissionRoute.GET, { submissionId: id }, `/api/submissions/${id}`);
    expect(read.json.submission.flags.blacklist).toMatchObject({
      log: "agent.log",
      totalHits: 1,
      hits: [{ line: 2, rule: "https://example-lab.github.io/wagc-demo/" }],
    });
  });

  it("the rubric export takes resourcesProvided (a bad value is a 400 naming it); an evaluation's blacklisted policy refuses retry, naming the field", async () => {
    const plain = await send(rubricExportRoute.GET, { paperId: PAPER }, `/api/papers/${PAPER}/rubric/export`);
    const under = await send(
      rubricExportRoute.GET,
      { paperId: PAPER },
      `/api/papers/${PAPER}/rubric/export?resourcesProvided=true`,
    );
    expect(under.status).toBe(200);
    expect(under.text).not.toBe(plain.text);
    expect(under.text.length).toBe(plain.text.length);
    const bad = await send(
      rubricExportRoute.GET,
      { paperId: PAPER },
      `/api/papers/${PAPER}/rubric/export?resourcesProvided=maybe`,
    );
    expect(bad.status).toBe(400);
    expect(bad.json.error.details[0].path).toBe("resourcesProvided");

    const body = (blacklisted: unknown) =>
      JSON.stringify({
        name: "policies",
        agent: "Policy agent",
        paperIds: [PAPER],
        runs: 1,
        policies: {
          reproduction_failed: "zero",
          reproduction_timed_out: "zero",
          judge_invalid_leaves: "zero",
          blacklisted,
        },
      });
    const post = (blacklisted: unknown) =>
      send(evaluationsRoute.POST as Handler<Record<string, never>>, {}, "/api/evaluations", {
        method: "POST",
        body: body(blacklisted),
        headers: { "content-type": "application/json" },
      });
    const refused = await post({ retry: 2 });
    expect(refused.status).toBe(400);
    expect(refused.json.error.details[0]).toMatchObject({
      path: "policies.blacklisted",
      message: "must be zero or exclude (a flagged run is not retried)",
    });
    const accepted = await post("exclude");
    expect(accepted.status).toBe(201);
    expect(accepted.json.evaluation.policies.blacklisted).toBe("exclude");
  });
});
