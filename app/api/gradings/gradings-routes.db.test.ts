import { AGGREGATED_EXPLANATION } from "@/lib/grading/types";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { addPaperMember } from "@/db/queries/papers";
import { createUser } from "@/db/queries/users";
import { gradingAssignments } from "@/db/schema";
import { parseGradedJson } from "@/lib/grading/graded-tree";
import { serializeGradedTree } from "@/lib/grading/serialize";
import type { GradedNode } from "@/lib/grading/types";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importGrading } from "@/server/gradings/import-grading";
import { importPaperFolder } from "@/server/papers/import";
import type { RubricNode } from "@/lib/rubric/types";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import type { JsonBody } from "@/test/json-body";
import { GET as getPaperGradings, POST as postPaperGrading } from "../papers/[paperId]/gradings/route";
import { GET as getExport } from "./[gradingId]/export/route";
import { GET as getFiles } from "./[gradingId]/files/route";
import { GET as getLeaf } from "./[gradingId]/leaves/[nodeKey]/route";
import { GET as getGrading } from "./[gradingId]/route";
import { POST as postScore } from "./[gradingId]/scores/route";

// The session is the only thing mocked: the wrapper, access checks and queries run for real.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("@/server/auth/session", () => ({
  getRequestSession: async () => (await import("@/test/mock-session")).liveSessionOf(session.userId),
}));

const globalForDb = globalThis as unknown as { __rubricStudioDb?: Promise<DbHandle> };
const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const PAPER = "demo-adaptive-clipping";

function gradedDemo(): GradedNode {
  const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
  let n = 0;
  const convert = (node: RubricNode): GradedNode => ({
    id: node.id,
    requirements: node.requirements,
    weight: node.weight,
    score: node.sub_tasks.length ? 0 : n++ % 2,
    valid_score: true,
    task_category: node.task_category,
    finegrained_task_category: node.finegrained_task_category,
    explanation: node.sub_tasks.length ? AGGREGATED_EXPLANATION : "judged",
    judge_metadata: null,
    sub_tasks: node.sub_tasks.map(convert),
  });
  const parsed = parseGradedJson(JSON.stringify(convert(rubric)));
  if (!parsed.ok) throw new Error("unreachable");
  return parsed.file.tree;
}

type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

async function call<P>(
  handler: Handler<P>,
  params: P,
  url: string,
  init: { method?: string; body?: BodyInit; headers?: Record<string, string> } = {},
) {
  const res = await handler(new NextRequest(`http://localhost${url}`, init), { params: Promise.resolve(params) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // CSV and the like
  }
  return { status: res.status, text, json: json as JsonBody, headers: res.headers };
}

describe.each(testDatabaseKinds())("grading routes on %s", (kind) => {
  let handle: DbHandle;
  const users: Record<"staff" | "author" | "grader" | "outsider", string> = {
    staff: "",
    author: "",
    grader: "",
    outsider: "",
  };
  let gradingId: string;
  const text = serializeGradedTree(gradedDemo());
  const as = (who: keyof typeof users | null) => {
    session.userId = who ? users[who] : null;
  };
  const jsonImport = (body: unknown) => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const countGradings = async () =>
    Number(((await handle.db.execute(sql`SELECT count(*)::int AS n FROM gradings`)).rows[0] as { n: number }).n);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    globalForDb.__rubricStudioDb = Promise.resolve(handle);
    for (const who of Object.keys(users) as (keyof typeof users)[]) {
      users[who] = (await createUser(handle.db, { email: `${who}@example.org`, isStaff: who === "staff" })).id;
    }
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: users.staff, source: "test" });
    await addPaperMember(handle.db, {
      paperId: PAPER,
      email: "author@example.org",
      role: "author",
      addedBy: users.staff,
    });
    await addPaperMember(handle.db, {
      paperId: PAPER,
      email: "grader@example.org",
      role: "grader",
      addedBy: users.staff,
    });
    gradingId = (
      await importGrading(handle, {
        paperId: PAPER,
        agentName: "agent A",
        runIndex: 1,
        variant: "full",
        human: false,
        fileText: text,
        userId: null,
      })
    ).gradingId;
    // A grader sees the gradings assigned to them (see grading-review-routes.db.test.ts).
    await handle.db.insert(gradingAssignments).values({ gradingId, userId: users.grader, assignedBy: users.staff });
  });
  afterAll(async () => {
    session.userId = null;
    globalForDb.__rubricStudioDb = undefined;
    await handle?.close();
  });

  it("signed out: 401 everywhere, and no rubric text", async () => {
    as(null);
    const responses = [
      await call(getPaperGradings, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`),
      await call(
        postPaperGrading,
        { paperId: PAPER },
        `/api/papers/${PAPER}/gradings`,
        jsonImport({ file: text, agent: "x", run: 1 }),
      ),
      await call(getGrading, { gradingId }, `/api/gradings/${gradingId}`),
      await call(getExport, { gradingId }, `/api/gradings/${gradingId}/export`),
      await call(getFiles, { gradingId }, `/api/gradings/${gradingId}/files`),
      await call(postScore, { gradingId }, `/api/gradings/${gradingId}/scores`, jsonImport({})),
    ];
    for (const r of responses) {
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe("unauthorized");
      expect(r.text).not.toContain("have been");
    }
  });

  it("a member of no paper: 403, and no rubric text", async () => {
    as("outsider");
    const responses = [
      await call(getPaperGradings, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`),
      await call(
        postPaperGrading,
        { paperId: PAPER },
        `/api/papers/${PAPER}/gradings`,
        jsonImport({ file: text, agent: "x", run: 1 }),
      ),
      await call(getGrading, { gradingId }, `/api/gradings/${gradingId}`),
      await call(getExport, { gradingId }, `/api/gradings/${gradingId}/export?format=csv`),
      await call(getFiles, { gradingId }, `/api/gradings/${gradingId}/files`),
      await call(postScore, { gradingId }, `/api/gradings/${gradingId}/scores`, jsonImport({})),
    ];
    for (const r of responses) {
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe("forbidden");
      expect(r.text).not.toContain("have been");
    }
  });

  it("only staff import; members list and export; graders and staff override, authors do not", async () => {
    as("author");
    const refused = await call(
      postPaperGrading,
      { paperId: PAPER },
      `/api/papers/${PAPER}/gradings`,
      jsonImport({ file: text, agent: "x", run: 1 }),
    );
    expect(refused.status).toBe(403);

    as("grader");
    const list = await call(getPaperGradings, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`);
    expect(list.status).toBe(200);
    expect(list.json.gradings.map((g: { id: string }) => g.id)).toContain(gradingId);
    const exported = await call(getExport, { gradingId }, `/api/gradings/${gradingId}/export`);
    expect(exported.status).toBe(200);
    expect(exported.text).toBe(text);
    expect(exported.headers.get("content-disposition")).toMatch(/attachment; filename=".*\.json"/);
    const csv = await call(getExport, { gradingId }, `/api/gradings/${gradingId}/export?format=csv`);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.text.startsWith("id,path,requirements,")).toBe(true);
    expect((await call(getExport, { gradingId }, `/api/gradings/${gradingId}/export?format=xml`)).status).toBe(400);
    expect((await call(getExport, { gradingId: "nope" }, `/api/gradings/nope/export`)).status).toBe(404);
    const unknown = crypto.randomUUID();
    expect((await call(getExport, { gradingId: unknown }, `/api/gradings/${unknown}/export`)).status).toBe(404);

    const detail = await call(getGrading, { gradingId }, `/api/gradings/${gradingId}`);
    expect(detail.status).toBe(200);
    const leaf = (detail.json.leaves as { key: string; verdict: { score: number } | null }[]).find(
      (l) => l.verdict?.score === 0,
    )!;
    const nodeKey = leaf.key;
    const override = await call(
      postScore,
      { gradingId },
      `/api/gradings/${gradingId}/scores`,
      jsonImport({ nodeKey, score: 1, reason: "runs" }),
    );
    expect(override.status).toBe(201);
    expect(override.json.override).toMatchObject({ oldScore: 0, newScore: 1, user: { email: "grader@example.org" } });
    const bad = await call(
      postScore,
      { gradingId },
      `/api/gradings/${gradingId}/scores`,
      jsonImport({ nodeKey, score: 3 }),
    );
    expect(bad.status).toBe(400);
    expect(bad.json.error.details[0].path).toBe("score");

    as("author");
    expect((await call(getGrading, { gradingId }, `/api/gradings/${gradingId}`)).status).toBe(200);
    const byAuthor = await call(
      postScore,
      { gradingId },
      `/api/gradings/${gradingId}/scores`,
      jsonImport({ nodeKey, score: 0 }),
    );
    expect(byAuthor.status).toBe(403);
    expect(byAuthor.json.error.message).toContain("cannot review gradings");
    expect(
      (await call(getLeaf, { gradingId, nodeKey }, `/api/gradings/${gradingId}/leaves/${nodeKey}`)).json.overrides,
    ).toHaveLength(1);
  });

  it("staff import by JSON and by multipart with the submitted repository; a malformed file is a 400 with its path", async () => {
    as("staff");
    const created = await call(
      postPaperGrading,
      { paperId: PAPER },
      `/api/papers/${PAPER}/gradings`,
      jsonImport({ file: text, agent: "agent B", run: 2, human: true }),
    );
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ pinned: "live", createdAgent: true, archive: null });

    const form = new FormData();
    form.set("file", new Blob([text], { type: "application/json" }), "grader_output.json");
    form.set(
      "submission",
      new Blob([
        new Uint8Array(
          await makeTarGz([
            { name: "sub/train.py", data: "print(1)\n" },
            { name: "sub/reproduce.log", data: "done\n" },
          ]),
        ),
      ]),
      "run.tar.gz",
    );
    form.set("agent", "agent B");
    form.set("run", "3");
    form.set("variant", "full");
    const multipart = await call(postPaperGrading, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`, {
      method: "POST",
      body: form,
    });
    expect(multipart.status).toBe(201);
    expect(multipart.json.archive).toEqual({ files: 1, kept: 1, hasReproduceLog: true, notes: [] });
    const id = multipart.json.gradingId as string;
    const files = await call(getFiles, { gradingId: id }, `/api/gradings/${id}/files`);
    expect(files.json.files).toEqual([{ path: "train.py", size: 9, skipped: null }]);
    expect((await call(getFiles, { gradingId: id }, `/api/gradings/${id}/files?path=train.py`)).json.file.content).toBe(
      "print(1)\n",
    );
    expect((await call(getFiles, { gradingId: id }, `/api/gradings/${id}/files?log=1`)).json.reproduceLog).toBe(
      "done\n",
    );
    expect((await call(getFiles, { gradingId: id }, `/api/gradings/${id}/files?path=missing.py`)).status).toBe(404);

    const before = await countGradings();
    const broken = JSON.parse(text);
    broken.sub_tasks[0].sub_tasks[0].score = "high";
    const malformed = await call(
      postPaperGrading,
      { paperId: PAPER },
      `/api/papers/${PAPER}/gradings`,
      jsonImport({ file: broken, agent: "agent C", run: 1 }),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.details[0]).toEqual({
      path: "sub_tasks[0].sub_tasks[0].score",
      message: "must be a number, got a string",
    });
    const badRun = await call(
      postPaperGrading,
      { paperId: PAPER },
      `/api/papers/${PAPER}/gradings`,
      jsonImport({ file: text, agent: "agent C", run: 0 }),
    );
    expect(badRun.status).toBe(400);
    expect(badRun.json.error.details[0].path).toBe("run");
    const badArchive = new FormData();
    badArchive.set("file", new Blob([text]), "g.json");
    badArchive.set("submission", new Blob(["not an archive"]), "run.tar.gz");
    badArchive.set("agent", "agent C");
    badArchive.set("run", "1");
    expect(
      (
        await call(postPaperGrading, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`, {
          method: "POST",
          body: badArchive,
        })
      ).status,
    ).toBe(400);
    expect(await countGradings()).toBe(before);
  });
});
