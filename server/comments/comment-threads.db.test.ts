import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { rubricComments, rubricCommentThreads } from "@/db/schema";
import { countOpenThreadsByNode, mentionsUser } from "@/lib/comments/threads";
import { AppError } from "@/lib/errors";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { addPaperMember } from "@/db/queries/papers";
import { listCommentThreads, listMentionablePeople } from "@/db/queries/rubric-comments";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { createUser } from "@/db/queries/users";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { replyToCommentThread } from "./reply-to-comment-thread";
import { resolveCommentThread } from "./resolve-comment-thread";
import { startCommentThread } from "./start-comment-thread";

describe.each(testDatabaseKinds())("rubric comments on %s", (kind) => {
  let handle: DbHandle;
  let rubricId: string;
  let nodeKeys: string[];
  let author: string;
  let grader: string;
  let outsider: string;
  let staff: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const { files } = readPaperFolder(path.join(process.cwd(), "rubrics", "demo"));
    await importPaperFolder(handle, { files, paperId: "talk", userId: null, source: "t" });
    rubricId = (await getRubricByPaperId(handle.db, "talk"))!.id;
    nodeKeys = (await getLiveNodeRows(handle.db, rubricId)).filter((r) => r.parentKey !== null).map((r) => r.key);
    staff = (await createUser(handle.db, { email: "staff@t.org", name: "Sam Staff", isStaff: true })).id;
    author = (
      await addPaperMember(handle.db, { paperId: "talk", email: "author@t.org", role: "author", addedBy: staff })
    ).userId;
    grader = (
      await addPaperMember(handle.db, { paperId: "talk", email: "grader@t.org", role: "grader", addedBy: staff })
    ).userId;
    outsider = (await createUser(handle.db, { email: "outsider@t.org" })).id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  const rowCounts = async () => ({
    threads: (await handle.db.select({ n: count() }).from(rubricCommentThreads))[0].n,
    comments: (await handle.db.select({ n: count() }).from(rubricComments))[0].n,
  });

  it("lists members and staff as mentionable, not outsiders", async () => {
    const people = await listMentionablePeople(handle.db, "talk");
    expect(people.map((p) => p.email)).toEqual(["author@t.org", "grader@t.org", "staff@t.org"]);
    expect(people.some((p) => p.id === outsider)).toBe(false);
  });

  it("keeps a thread with its replies and mentions, resolves and reopens it", async () => {
    const { threadId } = await startCommentThread(handle, {
      paperId: "talk",
      nodeKey: nodeKeys[0],
      body: "Is the weight right, @grader@t.org?",
      userId: author,
    });
    await replyToCommentThread(handle, {
      paperId: "talk",
      threadId,
      body: "Looks high to me. @AUTHOR@t.org",
      userId: grader,
    });
    let [thread] = (await listCommentThreads(handle.db, rubricId)).filter((t) => t.id === threadId);
    expect(thread.nodeKey).toBe(nodeKeys[0]);
    expect(thread.comments.map((c) => [c.author?.email, c.mentions])).toEqual([
      ["author@t.org", [grader]],
      ["grader@t.org", [author]],
    ]);
    expect(mentionsUser(thread, grader)).toBe(true);
    expect(mentionsUser(thread, staff)).toBe(false);
    expect(countOpenThreadsByNode([thread]).get(nodeKeys[0])).toBe(1);

    await resolveCommentThread(handle, { paperId: "talk", threadId, resolved: true, userId: grader });
    [thread] = (await listCommentThreads(handle.db, rubricId)).filter((t) => t.id === threadId);
    expect(thread.resolvedAt).not.toBeNull();
    expect(thread.resolvedBy?.email).toBe("grader@t.org");
    expect(countOpenThreadsByNode([thread]).size).toBe(0);
    await expect(
      resolveCommentThread(handle, { paperId: "talk", threadId, resolved: true, userId: grader }),
    ).rejects.toMatchObject({ code: "conflict" });

    // A reply reopens a resolved thread.
    await replyToCommentThread(handle, {
      paperId: "talk",
      threadId,
      body: "Reopening: changed my mind",
      userId: author,
    });
    [thread] = (await listCommentThreads(handle.db, rubricId)).filter((t) => t.id === threadId);
    expect(thread.resolvedAt).toBeNull();
    expect(thread.comments).toHaveLength(3);
  });

  it("refuses a mention of someone not on the paper, and writes nothing", async () => {
    const before = await rowCounts();
    const err = await startCommentThread(handle, {
      paperId: "talk",
      nodeKey: nodeKeys[1],
      body: "cc @outsider@t.org and @nobody@t.org",
      userId: author,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toContain("@outsider@t.org, @nobody@t.org are not");
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a thread on a deleted node or another rubric's node, and a reply to an unknown thread", async () => {
    await applyRubricOperation(handle, {
      paperId: "talk",
      userId: author,
      request: { clientOpId: "del-1", baseRevision: 1, op: { kind: "delete", keys: [nodeKeys[2]] } },
    });
    await expect(
      startCommentThread(handle, { paperId: "talk", nodeKey: nodeKeys[2], body: "hi", userId: author }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      startCommentThread(handle, { paperId: "talk", nodeKey: crypto.randomUUID(), body: "hi", userId: author }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      replyToCommentThread(handle, { paperId: "talk", threadId: crypto.randomUUID(), body: "hi", userId: author }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
