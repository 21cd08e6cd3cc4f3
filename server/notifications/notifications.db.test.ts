import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getGradingAssignment } from "@/db/queries/grading-reviews";
import { getGradingItemById } from "@/db/queries/gradings";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { createUser } from "@/db/queries/users";
import { SEE_EVERYTHING } from "@/lib/review/visibility";
import { notificationHref } from "@/lib/notifications/schemas";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { startCommentThread } from "@/server/comments/start-comment-thread";
import { replyToCommentThread } from "@/server/comments/reply-to-comment-thread";
import { importGrading } from "@/server/gradings/import-grading";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { addMember } from "@/server/papers/add-member";
import { removeMember } from "@/server/papers/remove-member";
import { assignGrading, removeGradingAssignment } from "@/server/reviews/assignments";
import { commitReviewScore } from "@/server/reviews/commit-review-score";
import { scopeOf } from "@/server/reviews/progress";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { changeRubricStatus } from "@/server/rubrics/change-rubric-status";
import { gradedDemoText } from "@/test/blind-review";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { listNotifications, markRead } from "./inbox";

describe.each(testDatabaseKinds())("notifications on %s", (kind) => {
  let handle: DbHandle;
  const PAPER = "notes";
  let rows: NodeRow[];
  const u = { staff: "", alice: "", bob: "", grace: "" };
  const inbox = (who: keyof typeof u) => listNotifications(handle, u[who]);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    ({ rows } = await seedDemoRubric(handle, PAPER));
    u.staff = (await createUser(handle.db, { email: "staff@n.org", name: "Sam Staff", isStaff: true })).id;
    for (const [who, role] of [
      ["alice", "author"],
      ["bob", "author"],
      ["grace", "grader"],
    ] as const) {
      u[who] = (await createUser(handle.db, { email: `${who}@n.org`, name: who[0].toUpperCase() + who.slice(1) })).id;
      await addMember(handle, { paperId: PAPER, email: `${who}@n.org`, role, addedBy: u.staff });
    }
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("a mention notifies the people mentioned, never the author of the comment, and links to the node", async () => {
    const node = rows.find((r) => r.parentKey !== null)!;
    const { threadId } = await startCommentThread(handle, {
      paperId: PAPER,
      nodeKey: node.key,
      body: "Is this weight right, @bob@n.org? (asking myself too, @alice@n.org)",
      userId: u.alice,
    });
    const bob = await inbox("bob");
    expect(bob.unread).toBe(1);
    expect(bob.items[0]).toMatchObject({
      kind: "mention",
      actor: "Alice",
      paperId: PAPER,
      nodeKey: node.key,
      gradingId: null,
      readAt: null,
    });
    // Mentions read by name, as in the comment itself.
    expect(bob.items[0].text).toBe("Is this weight right, @Bob? (asking myself too, @Alice)");
    expect(notificationHref(bob.items[0])).toBe(`/papers/${PAPER}/rubric?node=${node.key}`);
    expect((await inbox("alice")).items).toEqual([]);

    // A reply's mentions notify too, with the thread's node.
    await replyToCommentThread(handle, {
      paperId: PAPER,
      threadId,
      body: "Looks fine to me, @alice@n.org",
      userId: u.bob,
    });
    const alice = await inbox("alice");
    expect(alice.items.map((n) => [n.kind, n.actor, n.nodeKey])).toEqual([["mention", "Bob", node.key]]);
    expect((await inbox("bob")).unread).toBe(1);
  });

  it("marking read: by id (only one's own) and all; the unread count follows", async () => {
    const [bobs] = (await inbox("bob")).items;
    const [alices] = (await inbox("alice")).items;
    // Bob cannot mark Alice's notification read.
    expect(await markRead(handle, u.bob, { ids: [alices.id] })).toMatchObject({ unread: 1 });
    expect((await inbox("alice")).unread).toBe(1);
    expect(await markRead(handle, u.bob, { ids: [bobs.id] })).toMatchObject({ unread: 0, latest: bobs.id });
    expect((await inbox("bob")).items[0].readAt).not.toBeNull();
    expect(await markRead(handle, u.alice, { all: true })).toMatchObject({ unread: 0 });
  });

  it("an assignment notifies the grader with the run and scope; assigning oneself notifies nobody", async () => {
    const gradingId = (
      await importGrading(handle, {
        paperId: PAPER,
        agentName: "agent A",
        runIndex: 1,
        variant: "full",
        human: false,
        fileText: gradedDemoText(1),
        userId: null,
      })
    ).gradingId;
    const grading = (await getGradingItemById(handle.db, gradingId))!;
    const subtree = (await getGradingRows(handle.db, grading)).find((r) => r.parentKey !== null)!;
    await assignGrading(handle, {
      grading,
      email: "grace@n.org",
      nodeKeys: [subtree.key],
      blind: true,
      assignedBy: u.staff,
    });
    const [n] = (await inbox("grace")).items;
    expect(n).toMatchObject({ kind: "assignment", actor: "Sam Staff", gradingId, paperId: PAPER });
    expect(n.text).toBe("agent A, run 1 (full): 1 subtree, blind");
    expect(notificationHref(n)).toBe(`/gradings/${gradingId}`);
    await assignGrading(handle, { grading, email: "staff@n.org", nodeKeys: null, blind: false, assignedBy: u.staff });
    expect((await inbox("staff")).items).toEqual([]);
  });

  it("a grader finishing their assignment notifies whoever assigned it, once", async () => {
    const gradingId = (
      await importGrading(handle, {
        paperId: PAPER,
        agentName: "agent A",
        runIndex: 2,
        variant: "full",
        human: false,
        fileText: gradedDemoText(2),
        userId: null,
      })
    ).gradingId;
    const grading = (await getGradingItemById(handle.db, gradingId))!;
    const pinned = await getGradingRows(handle.db, grading);
    const parent = pinned.find((r) => r.parentKey !== null && pinned.some((c) => c.parentKey === r.key))!;
    await assignGrading(handle, {
      grading,
      email: "grace@n.org",
      nodeKeys: [parent.key],
      blind: false,
      assignedBy: u.staff,
    });
    const scope = [...scopeOf(pinned, [parent.key])];
    expect(scope.length).toBeGreaterThan(1);
    const commit = (nodeKey: string) =>
      commitReviewScore(handle, {
        grading,
        nodeKey,
        userId: u.grace,
        score: 1,
        reason: "checked",
        timeSpentMs: 10,
        visibility: SEE_EVERYTHING,
      });
    const finished = async () =>
      (await inbox("staff")).items.filter((n) => n.kind === "review_finished" && n.gradingId === gradingId);
    for (const key of scope.slice(0, -1)) await commit(key);
    expect(await finished()).toEqual([]);
    await commit(scope.at(-1)!);
    const [n] = await finished();
    expect(n).toMatchObject({ actor: "Grace", paperId: PAPER, text: `${scope.length} leaves reviewed` });
    expect(notificationHref(n)).toBe(`/gradings/${gradingId}`);
    // Going over a leaf again is no new finish.
    await commit(scope[0]);
    expect(await finished()).toHaveLength(1);
    // Staff reviewing a leaf without an assignment of theirs tells nobody.
    await commitReviewScore(handle, {
      grading,
      nodeKey: scope[0],
      userId: u.staff,
      score: 0,
      reason: "disagree",
      timeSpentMs: 5,
      visibility: SEE_EVERYTHING,
    });
    expect((await inbox("grace")).items.filter((n) => n.kind === "review_finished")).toEqual([]);
  });

  it("a rubric returned to draft notifies its authors but the one who returned it", async () => {
    const rev = (await getRubricByPaperId(handle.db, PAPER))!.revision;
    await changeRubricStatus(handle, {
      paperId: PAPER,
      action: "request_review",
      revision: rev,
      userId: u.alice,
      userLabel: "Alice",
    });
    await changeRubricStatus(handle, {
      paperId: PAPER,
      action: "return_to_draft",
      revision: rev,
      userId: u.bob,
      userLabel: "Bob",
    });
    const drafts = async (who: keyof typeof u) =>
      (await inbox(who)).items.filter((n) => n.kind === "returned_to_draft");
    expect(await drafts("bob")).toEqual([]);
    const [n] = await drafts("alice");
    expect(n).toMatchObject({
      actor: "Bob",
      text: `It was in review at revision ${rev}`,
      nodeKey: null,
      gradingId: null,
    });
    expect(notificationHref(n)).toBe(`/papers/${PAPER}/rubric`);
    expect(await drafts("staff")).toEqual([]);

    // A change after sign-off returns it to draft too: the authors but the editor hear of it.
    await changeRubricStatus(handle, {
      paperId: PAPER,
      action: "sign_off",
      revision: rev,
      userId: u.staff,
      userLabel: "Sam",
    });
    const leaf = rows.find((r) => r.parentKey !== null)!;
    await applyRubricOperation(handle, {
      paperId: PAPER,
      userId: u.alice,
      request: {
        clientOpId: crypto.randomUUID(),
        baseRevision: rev,
        op: { kind: "update", key: leaf.key, fields: { weight: 3 } },
      },
    });
    expect(await drafts("alice")).toHaveLength(1);
    const [changed] = await drafts("bob");
    expect(changed).toMatchObject({ actor: "Alice", text: `Changed after sign-off (revision ${rev + 1})` });
  });

  it("a notification about a paper the recipient can no longer see is hidden (listed and counted), and back with the access", async () => {
    await startCommentThread(handle, {
      paperId: PAPER,
      nodeKey: rows[1].key,
      body: "@grace@n.org have a look",
      userId: u.alice,
    });
    const before = await inbox("grace");
    expect(before.items.map((n) => n.kind)).toContain("mention");
    expect(before.unread).toBeGreaterThan(0);
    await removeMember(handle, PAPER, u.grace);
    expect(await inbox("grace")).toEqual({ items: [], unread: 0 });
    await addMember(handle, { paperId: PAPER, email: "grace@n.org", role: "grader", addedBy: u.staff });
    expect((await inbox("grace")).items.map((n) => n.id)).toEqual(before.items.map((n) => n.id));

    // A grader whose assignment is taken back no longer sees its notification (nor its grading).
    const assignment = before.items.find((n) => n.kind === "assignment")!;
    const grading = (await getGradingItemById(handle.db, assignment.gradingId!))!;
    const row = await getGradingAssignment(handle.db, grading.id, u.grace);
    await removeGradingAssignment(handle, grading.id, row!.id);
    const after = await inbox("grace");
    expect(after.items.map((n) => n.id)).not.toContain(assignment.id);
    expect(after.items.length).toBe(before.items.length - 1);
  });
});
