import { AGGREGATED_EXPLANATION } from "@/lib/grading/types";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { getGradingById } from "@/db/queries/gradings";
import { addPaperMember } from "@/db/queries/papers";
import { createUser } from "@/db/queries/users";
import { parseGradedJson } from "@/lib/grading/graded-tree";
import { serializeGradedTree } from "@/lib/grading/serialize";
import type { GradedNode } from "@/lib/grading/types";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importGrading } from "@/server/gradings/import-grading";
import { getGradingRows, getPinnedGradedTree } from "@/server/gradings/pinned-grading";
import { importPaperFolder } from "@/server/papers/import";
import { BLIND_REVIEW_REASON, INVALID_VERDICT_REASON } from "@/server/reviews/commit-review-score";
import type { ReviewCommitResult, ReviewLeafDetail, ReviewPayload, ReviewUnsureFlag } from "@/lib/review/types";
import type { SubmissionComparison } from "@/lib/grading/compare-gradings";
import { VERDICT_RATER, type GradingAgreement } from "@/lib/review/rater-agreement";
import type { RubricNode } from "@/lib/rubric/types";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import type { JsonBody } from "@/test/json-body";
import { GET as getReviewQueue } from "../review-queue/route";
import { GET as getCompare } from "../submissions/[submissionId]/compare/route";
import { GET as getPaperGradings } from "../papers/[paperId]/gradings/route";
import { DELETE as deleteAssignment } from "./[gradingId]/assignments/[assignmentId]/route";
import { GET as getAssignments, POST as postAssignment } from "./[gradingId]/assignments/route";
import { GET as getAgreement } from "./[gradingId]/agreement/route";
import { GET as getExport } from "./[gradingId]/export/route";
import { GET as getLeaf } from "./[gradingId]/leaves/[nodeKey]/route";
import { GET as getGrading } from "./[gradingId]/route";
import { POST as postScore } from "./[gradingId]/scores/route";
import { DELETE as clearUnsure, POST as postUnsure } from "./[gradingId]/unsure/route";

// The session is the only thing mocked: the wrapper, access checks and queries run for real.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("@/server/auth/session", () => ({
  getRequestSession: async () => (await import("@/test/mock-session")).liveSessionOf(session.userId),
}));

const globalForDb = globalThis as unknown as { __rubricStudioDb?: Promise<DbHandle> };
const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const PAPER = "demo-adaptive-clipping";
const SECRET = "judge explanation text";

/** The demo rubric graded: leaves alternate 0 and 1; the third leaf is invalid (a judge error). */
function gradedDemo(): GradedNode {
  const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
  let n = 0;
  const convert = (node: RubricNode): GradedNode => {
    const leaf = node.sub_tasks.length === 0;
    const i = leaf ? n++ : -1;
    return {
      id: node.id,
      requirements: node.requirements,
      weight: node.weight,
      score: leaf && i !== 2 ? i % 2 : 0,
      valid_score: i !== 2,
      task_category: node.task_category,
      finegrained_task_category: node.finegrained_task_category,
      explanation: leaf ? `${SECRET} ${i}` : AGGREGATED_EXPLANATION,
      judge_metadata: leaf ? { full_judge_response: `response ${i}` } : null,
      sub_tasks: node.sub_tasks.map(convert),
    };
  };
  const parsed = parseGradedJson(JSON.stringify(convert(rubric)));
  if (!parsed.ok) throw new Error("unreachable");
  return parsed.file.tree;
}

type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

async function call<P>(
  handler: Handler<P>,
  params: P,
  url: string,
  body?: unknown,
  method = body === undefined ? "GET" : "POST",
) {
  const init =
    body === undefined
      ? { method }
      : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const res = await handler(new NextRequest(`http://localhost${url}`, init), { params: Promise.resolve(params) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // CSV and the like
  }
  return { status: res.status, text, json: json as JsonBody };
}

describe.each(testDatabaseKinds())("grading review routes on %s", (kind) => {
  let handle: DbHandle;
  const users: Record<"staff" | "author" | "grader" | "grader2" | "outsider", string> = {
    staff: "",
    author: "",
    grader: "",
    grader2: "",
    outsider: "",
  };
  const gradings: string[] = [];
  const as = (who: keyof typeof users | null) => {
    session.userId = who ? users[who] : null;
  };
  const review = async (id: string) =>
    (await call(getGrading, { gradingId: id }, `/api/gradings/${id}`)).json as unknown as ReviewPayload;
  const commit = (id: string, body: { nodeKey: string; score: number; reason?: string; timeSpentMs?: number }) =>
    call(postScore, { gradingId: id }, `/api/gradings/${id}/scores`, body);
  const assign = (id: string, body: { email: string; nodeKeys?: string[] | null; blind?: boolean }) =>
    call(postAssignment, { gradingId: id }, `/api/gradings/${id}/assignments`, body);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    globalForDb.__rubricStudioDb = Promise.resolve(handle);
    for (const who of Object.keys(users) as (keyof typeof users)[]) {
      users[who] = (
        await createUser(handle.db, { email: `${who}@example.org`, name: who, isStaff: who === "staff" })
      ).id;
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
    await addPaperMember(handle.db, {
      paperId: PAPER,
      email: "grader2@example.org",
      role: "grader",
      addedBy: users.staff,
    });
    const text = serializeGradedTree(gradedDemo());
    for (let run = 1; run <= 4; run++) {
      gradings.push(
        (
          await importGrading(handle, {
            paperId: PAPER,
            agentName: "agent A",
            runIndex: run,
            variant: "full",
            human: false,
            fileText: text,
            userId: null,
          })
        ).gradingId,
      );
    }
  });
  afterAll(async () => {
    session.userId = null;
    globalForDb.__rubricStudioDb = undefined;
    await handle?.close();
  });

  it("signed out: 401 on every review route, without rubric text or explanations", async () => {
    as(null);
    const id = gradings[0];
    const key = crypto.randomUUID();
    const responses = [
      await call(getGrading, { gradingId: id }, `/api/gradings/${id}`),
      await call(getLeaf, { gradingId: id, nodeKey: key }, `/api/gradings/${id}/leaves/${key}`),
      await commit(id, { nodeKey: key, score: 1 }),
      await call(getAssignments, { gradingId: id }, `/api/gradings/${id}/assignments`),
      await assign(id, { email: "grader@example.org" }),
      await call(
        deleteAssignment,
        { gradingId: id, assignmentId: key },
        `/api/gradings/${id}/assignments/${key}`,
        undefined,
        "DELETE",
      ),
      await call(getReviewQueue, {}, "/api/review-queue"),
    ];
    for (const r of responses) {
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe("unauthorized");
      expect(r.text).not.toContain("have been");
      expect(r.text).not.toContain(SECRET);
    }
  });

  it("the nodes are the pinned version's rows, the same in every answer (their JSON is kept per version)", async () => {
    as("staff");
    const grading = (await getGradingById(handle.db, gradings[0]))!;
    const rows = await getGradingRows(handle.db, grading);
    const expected = rows.map((r) => ({
      key: r.key,
      parentKey: r.parentKey,
      nodeId: r.nodeId,
      requirements: r.requirements,
      weight: r.weight,
      taskCategory: r.taskCategory,
      finegrainedTaskCategory: r.finegrainedTaskCategory,
    }));
    const first = await review(gradings[0]);
    const again = await review(gradings[0]);
    const sibling = await review(gradings[1]);
    expect(first.nodes).toEqual(expected);
    expect(again).toEqual(first);
    // Another grading of the same version: the same nodes, its own grading and leaves.
    expect(sibling.nodes).toEqual(expected);
    expect(sibling.grading.id).toBe(gradings[1]);
    expect(Object.keys(first).sort()).toEqual(["grading", "leaves", "nodes", "rootScore", "viewer"]);
  });

  it("staff assign gradings and subtrees to graders of the paper; graders see only what is assigned to them", async () => {
    as("grader");
    // Nothing assigned yet: no grading of the paper, and 403 on each.
    expect((await call(getPaperGradings, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`)).json.gradings).toEqual(
      [],
    );
    const unassigned = await call(getGrading, { gradingId: gradings[0] }, `/api/gradings/${gradings[0]}`);
    expect(unassigned.status).toBe(403);
    expect(unassigned.json.error.message).toContain("not assigned to you");
    expect(unassigned.text).not.toContain(SECRET);
    // Only staff assign.
    expect((await assign(gradings[0], { email: "grader@example.org" })).status).toBe(403);
    as("author");
    expect((await assign(gradings[0], { email: "grader@example.org" })).status).toBe(403);
    as("outsider");
    expect((await call(getGrading, { gradingId: gradings[0] }, `/api/gradings/${gradings[0]}`)).status).toBe(403);

    as("staff");
    // An author, an outsider, an unknown node: 400 with the field.
    expect((await assign(gradings[0], { email: "author@example.org" })).json.error.details[0].path).toBe("email");
    expect((await assign(gradings[0], { email: "outsider@example.org" })).json.error.details[0].path).toBe("email");
    expect(
      (await assign(gradings[0], { email: "grader@example.org", nodeKeys: [crypto.randomUUID()] })).json.error
        .details[0].path,
    ).toBe("nodeKeys[0]");
    expect((await assign(gradings[0], { email: "grader@example.org" })).status).toBe(201);
    const nodes = (await review(gradings[1])).nodes;
    const subtree = nodes.find((n) => n.parentKey === nodes[0].key)!;
    expect((await assign(gradings[1], { email: "grader@example.org", nodeKeys: [subtree.key] })).status).toBe(201);

    as("grader");
    const listed = (await call(getPaperGradings, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`)).json
      .gradings as { id: string; score: number | null }[];
    expect(listed.map((g) => g.id).sort()).toEqual([gradings[0], gradings[1]].sort());
    expect(listed.find((g) => g.id === gradings[1])!.score).toBeNull();
    expect((await call(getGrading, { gradingId: gradings[2] }, `/api/gradings/${gradings[2]}`)).status).toBe(403);
    const queue = (await call(getReviewQueue, {}, "/api/review-queue")).json.assignments as {
      gradingId: string;
      progress: { reviewed: number; total: number };
    }[];
    expect(queue.map((q) => q.gradingId).sort()).toEqual([gradings[0], gradings[1]].sort());
    expect(queue.find((q) => q.gradingId === gradings[0])!.progress).toMatchObject({ reviewed: 0, total: 21 });
    expect((await call(getReviewQueue, {}, "/api/review-queue?all=1")).status).toBe(403);

    // The subtree: the leaves outside it come without verdict, and cannot be scored.
    const scoped = await review(gradings[1]);
    expect(scoped.rootScore).toBeNull();
    const outside = scoped.leaves.filter((l) => l.hidden === "scope");
    const inside = scoped.leaves.filter((l) => l.hidden === null);
    expect(outside.length).toBeGreaterThan(0);
    expect(inside.length).toBeGreaterThan(0);
    expect(outside.every((l) => l.verdict === null)).toBe(true);
    const leafOutside = await call(
      getLeaf,
      { gradingId: gradings[1], nodeKey: outside[0].key },
      `/api/gradings/${gradings[1]}/leaves/${outside[0].key}`,
    );
    expect(leafOutside.json).toMatchObject({ hidden: "scope", verdict: null });
    expect(leafOutside.text).not.toContain(SECRET);
    expect((await commit(gradings[1], { nodeKey: outside[0].key, score: 1 })).status).toBe(403);
    expect((await call(getExport, { gradingId: gradings[1] }, `/api/gradings/${gradings[1]}/export`)).status).toBe(403);
    expect((await call(getGrading, { gradingId: gradings[1] }, `/api/gradings/${gradings[1]}`)).text).not.toContain(
      SECRET,
    );
    const insideDetail = await call(
      getLeaf,
      { gradingId: gradings[1], nodeKey: inside[0].key },
      `/api/gradings/${gradings[1]}/leaves/${inside[0].key}`,
    );
    expect((insideDetail.json as ReviewLeafDetail).verdict?.explanation).toContain(SECRET);

    // Staff see progress per grader; assigning again replaces; an assignment can be taken back.
    as("staff");
    const list = (await call(getAssignments, { gradingId: gradings[1] }, `/api/gradings/${gradings[1]}/assignments`))
      .json.assignments;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      user: { email: "grader@example.org" },
      nodeKeys: [subtree.key],
      blind: false,
      progress: { reviewed: 0, total: inside.length },
    });
    expect((await assign(gradings[1], { email: "grader@example.org", nodeKeys: null })).status).toBe(201);
    const again = (await call(getAssignments, { gradingId: gradings[1] }, `/api/gradings/${gradings[1]}/assignments`))
      .json.assignments;
    expect(again).toHaveLength(1);
    expect(again[0].nodeKeys).toBeNull();
    const removed = await call(
      deleteAssignment,
      { gradingId: gradings[1], assignmentId: again[0].id },
      `/api/gradings/${gradings[1]}/assignments/${again[0].id}`,
      undefined,
      "DELETE",
    );
    expect(removed.status).toBe(200);
    as("grader");
    expect((await call(getGrading, { gradingId: gradings[1] }, `/api/gradings/${gradings[1]}`)).status).toBe(403);
  });

  it("a commit confirms or overrides (a change needs a reason) and recomputes the root; a review of every leaf marks the grading reviewed", async () => {
    const id = gradings[0];
    as("grader");
    const payload = await review(id);
    expect(payload.viewer).toMatchObject({
      role: "grader",
      canReview: true,
      canAssign: false,
      assignment: { blind: false, nodeKeys: null },
    });
    const leaves = payload.leaves;
    const [zero, one, invalid] = [
      leaves.find((l) => l.verdict!.valid && l.verdict!.score === 0)!,
      leaves.find((l) => l.verdict!.score === 1)!,
      leaves.find((l) => !l.verdict!.valid)!,
    ];

    // Confirming: a review mark, no override, the same root.
    const confirmed = await commit(id, { nodeKey: one.key, score: 1, timeSpentMs: 4_000 });
    expect(confirmed.status).toBe(201);
    const c = confirmed.json as unknown as ReviewCommitResult;
    expect(c.override).toBeNull();
    expect(c.review).toMatchObject({ score: 1, overrideId: null, blind: false, timeSpentMs: 4_000 });
    expect(Object.is(c.rootScore, payload.rootScore)).toBe(true);

    // Changing a score without a reason: 400 on `reason`, nothing written.
    const refused = await commit(id, { nodeKey: zero.key, score: 1, reason: "  " });
    expect(refused.status).toBe(400);
    expect(refused.json.error.details[0].path).toBe("reason");
    const bad = await commit(id, { nodeKey: zero.key, score: 2, reason: "x" });
    expect(bad.json.error.details[0].path).toBe("score");
    expect((await review(id)).leaves.find((l) => l.key === zero.key)).toMatchObject({
      override: null,
      mine: null,
      reviews: 0,
    });

    // With a reason: an override, and the root is the one the stored grading gives.
    const overridden = (await commit(id, { nodeKey: zero.key, score: 1, reason: "It is there" }))
      .json as unknown as ReviewCommitResult;
    expect(overridden.override).toMatchObject({
      oldScore: 0,
      newScore: 1,
      reason: "It is there",
      user: { email: "grader@example.org" },
    });
    expect(overridden.leaf).toMatchObject({ override: 1, mine: 1, reviews: 1, hidden: null });
    const stored = (await getGradingById(handle.db, id))!;
    expect(Object.is(overridden.rootScore, stored.score)).toBe(true);
    expect(Object.is(stored.score, (await getPinnedGradedTree(handle.db, stored)).scores.rootScore)).toBe(true);
    expect(overridden.rootScore).toBeGreaterThan(payload.rootScore!);
    const detail = (await call(getLeaf, { gradingId: id, nodeKey: zero.key }, `/api/gradings/${id}/leaves/${zero.key}`))
      .json as unknown as ReviewLeafDetail;
    expect(detail.verdict).toMatchObject({
      score: 0,
      valid: true,
      explanation: expect.stringContaining(SECRET),
      judgeMetadata: { full_judge_response: expect.any(String) },
    });
    expect(detail.overrides.map((o) => o.reason)).toEqual(["It is there"]);
    expect(detail.reviews.map((r) => r.overrideId)).toEqual([overridden.override!.id]);

    // An invalid verdict: scoring it overrides (it becomes valid), a reason is not required.
    const fixed = (await commit(id, { nodeKey: invalid.key, score: 0 })).json as unknown as ReviewCommitResult;
    expect(fixed.override).toMatchObject({ oldScore: 0, newScore: 0, reason: INVALID_VERDICT_REASON });

    // The rest, by staff and the grader: the grading is reviewed once every leaf has a mark.
    expect(fixed.reviewedAt).toBeNull();
    const rest = leaves.filter((l) => ![zero.key, one.key, invalid.key].includes(l.key));
    as("staff");
    for (const [i, l] of rest.entries()) {
      const r = (await commit(id, { nodeKey: l.key, score: l.verdict!.score })).json as unknown as ReviewCommitResult;
      expect(r.reviewedAt === null).toBe(i < rest.length - 1);
    }
    const reviewedAt = (
      (await handle.db.execute(sql`SELECT reviewed_at FROM gradings WHERE id = ${id}`)).rows[0] as {
        reviewed_at: unknown;
      }
    ).reviewed_at;
    expect(reviewedAt).not.toBeNull();
    expect((await review(id)).grading.reviewedAt).not.toBeNull();

    // Progress and time per grader.
    const list = (await call(getAssignments, { gradingId: id }, `/api/gradings/${id}/assignments`)).json.assignments;
    expect(list[0].progress).toMatchObject({ reviewed: 3, total: 21, timeSpentMs: 4_000 });
    const all = (await call(getReviewQueue, {}, "/api/review-queue?all=1")).json.assignments as {
      gradingId: string;
      grader: { email: string };
    }[];
    expect(all.some((a) => a.gradingId === id && a.grader.email === "grader@example.org")).toBe(true);

    // Authors read, never commit.
    as("author");
    const asAuthor = await review(id);
    expect(asAuthor.viewer.canReview).toBe(false);
    expect((await commit(id, { nodeKey: one.key, score: 1 })).status).toBe(403);
  });

  it("blind: no verdict, explanation, override or root score reaches the grader before they commit; the commit reveals that leaf", async () => {
    const id = gradings[2];
    as("staff");
    expect((await assign(id, { email: "grader2@example.org", blind: true })).status).toBe(201);
    // Someone else's override on a leaf: its history is hidden from the blind grader too.
    const staffView = await review(id);
    const target = staffView.leaves.find((l) => l.verdict!.valid && l.verdict!.score === 0)!;
    await commit(id, { nodeKey: target.key, score: 1, reason: "staff changed it" });

    as("grader2");
    const before = await call(getGrading, { gradingId: id }, `/api/gradings/${id}`);
    const payload = before.json as unknown as ReviewPayload;
    expect(payload.viewer.assignment).toMatchObject({ blind: true });
    expect(payload.rootScore).toBeNull();
    expect(
      payload.leaves.every((l) => l.hidden === "blind" && l.verdict === null && l.override === null && l.reviews === 0),
    ).toBe(true);
    for (const r of [
      before,
      await call(getLeaf, { gradingId: id, nodeKey: target.key }, `/api/gradings/${id}/leaves/${target.key}`),
    ]) {
      expect(r.status).toBe(200);
      expect(r.text).not.toContain(SECRET);
      expect(r.text).not.toContain("staff changed it");
      expect(r.text).not.toContain("response ");
    }
    expect((await call(getExport, { gradingId: id }, `/api/gradings/${id}/export`)).status).toBe(403);
    const listed = (await call(getPaperGradings, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`)).json
      .gradings as { id: string; score: number | null }[];
    expect(listed.find((g) => g.id === id)!.score).toBeNull();

    // A blind commit needs no reason; one that differs from the effective score overrides at once,
    // marked "Blind review" (the README's rule), and reveals the verdict.
    const committed = (await commit(id, { nodeKey: target.key, score: 0 })).json as unknown as ReviewCommitResult;
    expect(committed.review.blind).toBe(true);
    expect(committed.override).toMatchObject({ oldScore: 1, newScore: 0, reason: BLIND_REVIEW_REASON });
    expect(committed.review.overrideId).toBe(committed.override!.id);
    expect(committed.leaf).toMatchObject({ hidden: null, verdict: { score: 0, valid: true }, override: 0, mine: 0 });
    expect(committed.rootScore).toBeNull();
    // Once revealed, the leaf is scored like any other: the same score again confirms it.
    const confirmed = (await commit(id, { nodeKey: target.key, score: 0 })).json as unknown as ReviewCommitResult;
    expect(confirmed.review.blind).toBe(false);
    expect(confirmed.override).toBeNull();
    const revealed = (
      await call(getLeaf, { gradingId: id, nodeKey: target.key }, `/api/gradings/${id}/leaves/${target.key}`)
    ).json as unknown as ReviewLeafDetail;
    expect(revealed.verdict?.explanation).toContain(SECRET);
    expect(revealed.overrides.map((o) => o.reason)).toEqual(["staff changed it", BLIND_REVIEW_REASON]);
    expect(revealed.reviews.find((r) => r.blind)).toMatchObject({ overrideId: committed.override!.id });
    // With a reason a blind commit overrides at once, and says it was blind.
    const blindLeaf = staffView.leaves.find((l) => l.key !== target.key && l.verdict!.valid && l.verdict!.score === 1)!;
    const withReason = (await commit(id, { nodeKey: blindLeaf.key, score: 0, reason: "no plot" }))
      .json as unknown as ReviewCommitResult;
    expect(withReason.override).toMatchObject({ oldScore: 1, newScore: 0, reason: `${BLIND_REVIEW_REASON}. no plot` });
    const after = await review(id);
    expect(
      after.leaves
        .filter((l) => l.hidden === null)
        .map((l) => l.key)
        .sort(),
    ).toEqual([target.key, blindLeaf.key].sort());
    // A blind commit that agrees: a mark only.
    const other = staffView.leaves.find((l) => l.key !== target.key && l.key !== blindLeaf.key && l.verdict!.valid)!;
    const agreed = (await commit(id, { nodeKey: other.key, score: other.verdict!.score }))
      .json as unknown as ReviewCommitResult;
    expect(agreed.override).toBeNull();
    expect(agreed.leaf.verdict).toMatchObject({ score: other.verdict!.score });
    // Staff see everything.
    as("staff");
    expect((await review(id)).leaves.every((l) => l.verdict !== null)).toBe(true);
  });
  it("unsure: a reviewer flags a leaf with a note and it stays unreviewed; the flag shows to who sees the leaf; they or staff clear it; a score clears it", async () => {
    const id = gradings[3];
    const flag = (body: unknown) => call(postUnsure, { gradingId: id }, `/api/gradings/${id}/unsure`, body);
    const clear = (query: string) =>
      call(clearUnsure, { gradingId: id }, `/api/gradings/${id}/unsure?${query}`, undefined, "DELETE");
    as("staff");
    expect((await assign(id, { email: "grader2@example.org", blind: true })).status).toBe(201);
    const [a, b] = (await review(id)).leaves.filter((l) => l.verdict!.valid);

    // Who may flag: reviewers of the grading only.
    for (const who of ["author", "grader", "outsider"] as const) {
      as(who);
      expect((await flag({ nodeKey: a.key, note: "x" })).status).toBe(403);
    }
    as(null);
    expect((await flag({ nodeKey: a.key })).status).toBe(401);

    as("grader2");
    expect((await flag({ nodeKey: crypto.randomUUID() })).json.error.details[0].path).toBe("nodeKey");
    expect((await flag({ nodeKey: a.key, note: "bad\u0000note" })).status).toBe(400);
    expect((await flag({ nodeKey: a.key, note: "x".repeat(2_001) })).json.error.details[0].path).toBe("note");
    const flagged = await flag({ nodeKey: a.key, note: "  Which seed does this mean?  " });
    expect(flagged.status).toBe(201);
    expect(flagged.json.flags).toMatchObject([
      { userId: users.grader2, note: "Which seed does this mean?", user: { email: "grader2@example.org" } },
    ]);
    // Flagging again replaces the note.
    expect((await flag({ nodeKey: a.key, note: "Which seed?" })).json.flags).toHaveLength(1);
    const mine = (await review(id)).leaves.find((l) => l.key === a.key)!;
    expect(mine).toMatchObject({ reviews: 0, mine: null, hidden: "blind", unsure: [{ note: "Which seed?" }] });

    // Staff see it (and flag it too); the blind grader does not see staff's note on a leaf hidden from them.
    as("staff");
    expect((await review(id)).leaves.find((l) => l.key === a.key)!.unsure.map((f) => f.note)).toEqual(["Which seed?"]);
    expect((await flag({ nodeKey: a.key, note: "the judge gave 1" })).json.flags).toHaveLength(2);
    as("grader2");
    expect((await review(id)).leaves.find((l) => l.key === a.key)!.unsure.map((f) => f.note)).toEqual(["Which seed?"]);

    // Clearing: one's own; another's only staff.
    expect((await clear(`nodeKey=${a.key}&userId=${users.staff}`)).status).toBe(403);
    expect((await clear(`nodeKey=${a.key}&userId=nope`)).status).toBe(400);
    as("staff");
    const cleared = await clear(`nodeKey=${a.key}&userId=${users.grader2}`);
    expect(cleared.status).toBe(200);
    expect((cleared.json.flags as ReviewUnsureFlag[]).map((f) => f.userId)).toEqual([users.staff]);
    expect((await clear(`nodeKey=${a.key}&userId=${users.grader2}`)).status).toBe(404);
    expect((await clear(`nodeKey=${a.key}`)).json.flags).toEqual([]);

    // A score settles it: the committer's own flag goes with the score.
    as("grader2");
    expect((await flag({ nodeKey: b.key, note: "unsure" })).status).toBe(201);
    const scored = (await commit(id, { nodeKey: b.key, score: b.verdict!.score }))
      .json as unknown as ReviewCommitResult;
    expect(scored.leaf.unsure).toEqual([]);
    expect((await review(id)).leaves.find((l) => l.key === b.key)!.unsure).toEqual([]);
  });
  it("compare: two gradings of one submission leaf by leaf, differences first; only who reads both in full; not across submissions", async () => {
    as("staff");
    // A judge's and a person's grading of a fresh run: every valid leaf flipped but the first.
    const judged = (
      await importGrading(handle, {
        paperId: PAPER,
        agentName: "agent A",
        runIndex: 5,
        variant: "full",
        human: false,
        fileText: serializeGradedTree(gradedDemo()),
        userId: null,
      })
    ).gradingId;
    const flipped = gradedDemo();
    let n = 0;
    const flip = (node: GradedNode) => {
      if (node.sub_tasks.length === 0 && node.valid_score && n++ > 0) node.score = 1 - node.score;
      node.sub_tasks.forEach(flip);
    };
    flip(flipped);
    const human = (
      await importGrading(handle, {
        paperId: PAPER,
        agentName: "agent A",
        runIndex: 5,
        variant: "full",
        human: true,
        fileText: serializeGradedTree(flipped),
        userId: null,
      })
    ).gradingId;
    const first = await review(judged);
    const submissionId = first.grading.submissionId;
    const url = (q: string) => `/api/submissions/${submissionId}/compare${q}`;
    const compare = (q = "") => call(getCompare, { submissionId }, url(q));

    const both = (await compare(`?a=${judged}&b=${human}`)).json as unknown as SubmissionComparison;
    expect(both.gradings.map((g) => g.id).sort()).toEqual([judged, human].sort());
    expect(both.a?.id).toBe(judged);
    expect(both.b).toMatchObject({ id: human, kind: "human" });
    const valid = first.leaves.filter((l) => l.verdict!.valid).length;
    // They agree on the first leaf and on the invalid one (invalid on both sides).
    expect(both.result!.counts).toEqual({ differs: valid - 1, "only-a": 0, "only-b": 0, same: 2 });
    expect(both.result!.leaves.at(-1)!.status).toBe("same");
    expect(both.result!.leaves[0].a!.explanation).toContain(SECRET);
    expect(both.result!.rootA).toBeCloseTo(first.rootScore!, 12);
    // Without a pick: the first two.
    expect(((await compare()).json as unknown as SubmissionComparison).result).not.toBeNull();

    // Another submission's grading is refused; a bad id is a 400.
    expect((await compare(`?a=${judged}&b=${gradings[1]}`)).status).toBe(400);
    expect((await compare(`?a=nope`)).json.error.details[0].path).toBe("a");
    as("author");
    expect((await compare(`?a=${judged}&b=${human}`)).status).toBe(200);
    as("outsider");
    expect((await compare()).status).toBe(404);
    // A grader compares only gradings assigned to them: none here, so nothing to pick and no comparison.
    as("grader");
    expect((await compare(`?a=${judged}&b=${human}`)).status).toBe(403);
    expect((await compare()).json).toMatchObject({ result: null, a: null, gradings: [] });
  });
  it("agreement: two graders on the same leaves get Cohen's κ and F1 beside the verdicts' agreement with each; one grader alone, none between graders", async () => {
    as("staff");
    const id = (
      await importGrading(handle, {
        paperId: PAPER,
        agentName: "agent A",
        runIndex: 6,
        variant: "full",
        human: false,
        fileText: serializeGradedTree(gradedDemo()),
        userId: null,
      })
    ).gradingId;
    const agreement = async () =>
      (await call(getAgreement, { gradingId: id }, `/api/gradings/${id}/agreement`))
        .json as unknown as GradingAgreement;
    expect((await agreement()).pairs).toEqual([]);
    for (const email of ["grader@example.org", "grader2@example.org"])
      expect((await assign(id, { email, blind: true })).status).toBe(201);
    const leaves = (await review(id)).leaves.filter((l) => l.verdict!.valid).slice(0, 4);
    // Blind scores need no reason. Grader: 1 1 0 0; grader2: 1 0 0 1.
    as("grader");
    for (const [i, score] of [1, 1, 0, 0].entries())
      expect((await commit(id, { nodeKey: leaves[i].key, score })).status).toBe(201);
    // One grader: agreement with the verdicts only.
    as("staff");
    const one = await agreement();
    expect(one.raters.filter((r) => r.kind === "person").map((r) => r.label)).toEqual(["grader"]);
    expect(one.pairs.map((p) => p.a)).toEqual([VERDICT_RATER]);
    as("grader2");
    for (const [i, score] of [1, 0, 0, 1].entries())
      expect((await commit(id, { nodeKey: leaves[i].key, score })).status).toBe(201);
    as("author");
    const two = await agreement();
    const between = two.pairs.find((p) => p.a !== VERDICT_RATER)!;
    // By hand: both 1 on one leaf, both 0 on one, one each way on two: pₒ = 1/2, pₑ = 1/2, κ = 0; F1 (1/2 + 1/2) / 2.
    expect(between.overall).toMatchObject({ kappa: 0, f1: 0.5, leaves: 4, agreed: 2 });
    expect(Object.values(between.byCategory).reduce((n, c) => n + c.leaves, 0)).toBe(4);
    expect(two.pairs.filter((p) => p.a === VERDICT_RATER)).toHaveLength(2);
    // A grader whose assignment hides verdicts cannot read it.
    as("grader");
    expect((await call(getAgreement, { gradingId: id }, `/api/gradings/${id}/agreement`)).status).toBe(403);
  });
});
