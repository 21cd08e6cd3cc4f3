import { describe, expect, it } from "vitest";
import { leaf, node } from "@/lib/grading/grading-data.testutil";
import { recomputeScores, toRubricTree } from "@/lib/grading/graded-tree";
import { treeToRows } from "@/lib/rubric/tree-rows";
import { buildPinnedGradedTree } from "@/lib/grading/pinned-tree";
import { NO_CATEGORY, NO_REVIEW_FILTERS, ReviewModel, reviewFiltersActive } from "./review-model";
import type { ReviewLeaf, ReviewPayload } from "./types";
import {
  blindReviewOpen,
  hiddenReason,
  leavesUnder,
  maySeeAggregate,
  SEE_EVERYTHING,
  visibleUnsureFlags,
} from "./visibility";

// root ─ a (w2) ─ a1 (1, CD) · a2 (0, CE, w3)
//      ├ b (w1, RA, 0.5)
//      └ c (w1) ─ c1 (0, invalid)
const graded = recomputeScores(
  node("root", 1, [
    node("a", 2, [leaf("a1", 1, 1), leaf("a2", 3, 0, "Code Execution")]),
    leaf("b", 1, 0.5, "Result Analysis"),
    node("c", 1, [leaf("c1", 1, 0, "Code Development", false)]),
  ]),
);
let k = 0;
const rows = treeToRows(toRubricTree(graded), () => `00000000-0000-4000-8000-${String(k++).padStart(12, "0")}`);
const key = (id: string) => rows.find((r) => r.nodeId === id)!.key;
const LEAVES = ["a1", "a2", "b", "c1"];
const verdictOf: Record<string, { score: number; valid: boolean }> = {
  a1: { score: 1, valid: true },
  a2: { score: 0, valid: true },
  b: { score: 0.5, valid: true },
  c1: { score: 0, valid: false },
};

function payload(
  leaves: Partial<Record<string, Partial<ReviewLeaf>>> = {},
  role: "staff" | "grader" = "staff",
): ReviewPayload {
  return {
    grading: {
      id: "g",
      paperId: "p",
      paperTitle: "P",
      agentName: "A",
      runIndex: 1,
      variant: "full",
      kind: "judge",
      judgeModel: null,
      provenance: {
        origin: "import",
        judgeKind: null,
        judgeModel: null,
        mode: null,
        config: null,
        promptSource: null,
        evaluationId: null,
        policies: null,
      },
      rubricVersionName: "v",
      submissionId: "s",
      reviewedAt: null,
    },
    viewer: {
      userId: "u",
      role,
      canReview: true,
      canAssign: role === "staff",
      assignment: role === "grader" ? { id: "x", nodeKeys: null, blind: false } : null,
    },
    nodes: rows.map(({ position: _position, ...n }) => n),
    leaves: LEAVES.map((id) => ({
      key: key(id),
      verdict: { ...verdictOf[id], source: "import" as const },
      override: null,
      hidden: null,
      reviews: 0,
      mine: null,
      unsure: [],
      ...leaves[id],
    })),
    rootScore: null,
  };
}

/** The root as the server computes it: the verdicts, then the latest override of each leaf. */
function serverRoot(overrides: [string, number][]): number {
  return buildPinnedGradedTree(
    rows,
    LEAVES.map((id) => ({ nodeKey: key(id), ...verdictOf[id], explanation: "", judgeMetadata: null })),
    overrides.map(([id, newScore]) => ({ nodeKey: key(id), newScore })),
  ).scores.rootScore;
}

describe("the review page's model", () => {
  it("scores every node as the server does, verdicts and overrides apart, and recomputes the root at once on a commit", () => {
    const m = new ReviewModel(payload({ a2: { override: 1 } }));
    expect(Object.is(m.rootScore, serverRoot([["a2", 1]]))).toBe(true);
    expect(Object.is(m.verdictScoreOf(key("root")), graded.score)).toBe(true);
    expect(m.scoreOf(key("c1"))).toBe(0);
    expect(m.isInvalid(key("c1"))).toBe(true);
    expect(m.isDisagreement(key("a2"))).toBe(true);

    let notified = 0;
    m.subscribe(() => notified++);
    const v0 = m.getVersion();
    // Confirming: no score changes.
    const confirm = m.commitLocal(key("a1"), 1);
    expect(confirm.overrides).toBe(false);
    expect(Object.is(m.rootScore, serverRoot([["a2", 1]]))).toBe(true);
    // Overriding: the root follows, bit for bit what the server will compute.
    const change = m.commitLocal(key("b"), 1);
    expect(change.overrides).toBe(true);
    expect(
      Object.is(
        m.rootScore,
        serverRoot([
          ["a2", 1],
          ["b", 1],
        ]),
      ),
    ).toBe(true);
    expect(m.verdictScoreOf(key("b"))).toBe(0.5);
    expect(notified).toBe(2);
    expect(m.getVersion()).toBe(v0 + 2);
    // A refusal rolls back.
    change.undo();
    expect(Object.is(m.rootScore, serverRoot([["a2", 1]]))).toBe(true);
    expect(m.leaf(key("b"))).toMatchObject({ override: null, mine: null, reviews: 0 });
    // An invalid verdict: scoring it, even 0, is an override.
    expect(m.commitLocal(key("c1"), 0).overrides).toBe(true);
    expect(m.isInvalid(key("c1"))).toBe(false);
    // The server's answer agrees; a different root says someone else changed the grading.
    expect(
      m.confirm(
        {
          key: key("c1"),
          verdict: { score: 0, valid: false, source: "import" },
          override: 0,
          hidden: null,
          reviews: 1,
          mine: 0,
          unsure: [],
        },
        serverRoot([
          ["a2", 1],
          ["c1", 0],
        ]),
      ),
    ).toBe(true);
    expect(
      m.confirm(
        {
          key: key("a1"),
          verdict: { score: 1, valid: true, source: "import" },
          override: null,
          hidden: null,
          reviews: 1,
          mine: 1,
          unsure: [],
        },
        0.123,
      ),
    ).toBe(false);
  });

  it("counts progress per category, filters, and walks leaves with j/k/n", () => {
    const m = new ReviewModel(payload({ a1: { reviews: 1 }, a2: { override: 1 } }));
    expect(m.categories).toEqual(["Code Development", "Code Execution", "Result Analysis"]);
    expect(m.progress()).toEqual({
      reviewed: 1,
      total: 4,
      byCategory: [
        { category: "Code Development", reviewed: 1, total: 2 },
        { category: "Code Execution", reviewed: 0, total: 1 },
        { category: "Result Analysis", reviewed: 0, total: 1 },
      ],
    });
    // Counted again after every change (the page asks on every render and keeps nothing itself).
    const commit = m.commitLocal(key("a2"), 1);
    expect(m.progress().reviewed).toBe(2);
    commit.undo();
    expect(m.progress().reviewed).toBe(1);
    const ids = (keys: (string | null)[]) => keys.map((k) => rows.find((r) => r.key === k)?.nodeId ?? null);
    expect(
      ids([m.stepLeaf(null, 1), m.stepLeaf(key("a1"), 1), m.stepLeaf(key("c1"), 1), m.stepLeaf(key("a1"), -1)]),
    ).toEqual(["a1", "a2", "a1", "c1"]);
    // From an internal node: its first leaf forwards, the leaf before it backwards.
    expect(ids([m.stepLeaf(key("c"), 1), m.stepLeaf(key("c"), -1)])).toEqual(["c1", "b"]);
    const unreviewed = { ...NO_REVIEW_FILTERS, unreviewed: true };
    expect(ids([m.stepLeaf(null, 1, (k) => m.matches(k, unreviewed))])).toEqual(["a2"]);
    expect(LEAVES.filter((id) => m.matches(key(id), { ...NO_REVIEW_FILTERS, invalid: true }))).toEqual(["c1"]);
    expect(LEAVES.filter((id) => m.matches(key(id), { ...NO_REVIEW_FILTERS, disagreement: true }))).toEqual(["a2"]);
    expect(LEAVES.filter((id) => m.matches(key(id), { ...NO_REVIEW_FILTERS, category: "Code Development" }))).toEqual([
      "a1",
      "c1",
    ]);
    expect(m.matches(key("a"), NO_REVIEW_FILTERS)).toBe(false);
    expect(m.stepLeaf(key("a1"), 1, () => false)).toBeNull();
    expect(NO_CATEGORY).toBe("(none)");
  });

  it("hides the scores above a hidden leaf until the verdict is revealed", () => {
    const hidden = { verdict: null, hidden: "blind" as const };
    const m = new ReviewModel(payload({ a2: hidden, b: hidden }, "grader"));
    expect(m.rootScore).toBeNull();
    expect(m.scoreOf(key("a"))).toBeNull();
    expect(m.scoreOf(key("a1"))).toBe(1);
    expect(m.scoreOf(key("c"))).toBe(0);
    // A grader counts their own marks.
    expect(m.countsOwnReviews).toBe(true);
    const blind = m.commitLocal(key("a2"), 1);
    expect(blind).toMatchObject({ blind: true, overrides: false });
    expect(m.isReviewed(key("a2"))).toBe(true);
    expect(m.scoreOf(key("a"))).toBeNull();
    m.confirm(
      {
        key: key("a2"),
        verdict: { score: 0, valid: true, source: "import" },
        override: 1,
        hidden: null,
        reviews: 1,
        mine: 1,
        unsure: [],
      },
      null,
    );
    expect(m.scoreOf(key("a"))).toBe(1);
    expect(m.verdictScoreOf(key("a"))).toBe(0.25);
    expect(m.rootScore).toBeNull();
    m.confirm(
      {
        key: key("b"),
        verdict: { score: 0.5, valid: true, source: "import" },
        override: null,
        hidden: null,
        reviews: 1,
        mine: 0.5,
        unsure: [],
      },
      null,
    );
    expect(Object.is(m.rootScore, serverRoot([["a2", 1]]))).toBe(true);
  });
});

describe("unsure flags", () => {
  const flag = (userId: string, note = "") => ({
    userId,
    user: { name: null, email: `${userId}@x` },
    note,
    createdAt: "2026-01-01T00:00:00.000Z",
  });

  it("filter and count flagged leaves; n skips the viewer's own flags; a score drops the viewer's flag", () => {
    const m = new ReviewModel(
      payload({ a2: { unsure: [flag("u", "which metric?")] }, b: { unsure: [flag("other")] } }, "grader"),
    );
    expect(m.unsureCount()).toBe(2);
    const unsure = { ...NO_REVIEW_FILTERS, unsure: true };
    expect(LEAVES.filter((id) => m.matches(key(id), unsure))).toEqual(["a2", "b"]);
    expect(reviewFiltersActive(unsure)).toBe(true);
    // Next to review: a1, then (a2 skipped: the viewer's own flag) b, flagged by someone else only.
    expect(LEAVES.filter((id) => m.isToReview(key(id)))).toEqual(["a1", "b", "c1"]);
    expect(m.isReviewed(key("a2"))).toBe(false);
    const v0 = m.getVersion();
    m.setUnsure(key("a1"), [flag("u")]);
    expect(m.getVersion()).toBe(v0 + 1);
    expect(m.unsureCount()).toBe(3);
    const c = m.commitLocal(key("a2"), 1);
    expect(m.leaf(key("a2"))?.unsure).toEqual([]);
    c.undo();
    expect(m.leaf(key("a2"))?.unsure).toHaveLength(1);
    m.setUnsure(key("a1"), []);
    expect(m.isUnsure(key("a1"))).toBe(false);
  });

  it("of a leaf hidden from the viewer, only their own flag shows", () => {
    const flags = [flag("u"), flag("other", "the judge said 1")];
    expect(visibleUnsureFlags(flags, null, "u")).toEqual(flags);
    expect(visibleUnsureFlags(flags, "blind", "u")).toEqual([flags[0]]);
    expect(visibleUnsureFlags(flags, "scope", "nobody")).toEqual([]);
  });
});

describe("who sees which verdict", () => {
  it("a grader's assignment limits the leaves, and blind hides a leaf until they commit", () => {
    expect([...leavesUnder(rows, [key("a")])].sort()).toEqual([key("a1"), key("a2")].sort());
    expect([...leavesUnder(rows, [key("b"), key("c")])].sort()).toEqual([key("b"), key("c1")].sort());
    expect(hiddenReason(key("a1"), SEE_EVERYTHING)).toBeNull();
    const v = { scope: leavesUnder(rows, [key("a")]), blind: true, committed: new Set([key("a1")]) };
    expect(LEAVES.map((id) => hiddenReason(key(id), v))).toEqual([null, "blind", "scope", "scope"]);
  });

  it("an aggregate shows only when no leaf under it is hidden from the viewer", () => {
    const all = LEAVES.map(key);
    expect(maySeeAggregate(all, SEE_EVERYTHING)).toBe(true);
    const subtree = { scope: leavesUnder(rows, [key("a")]), blind: false, committed: new Set<string>() };
    expect(maySeeAggregate([key("a1"), key("a2")], subtree)).toBe(true);
    expect(maySeeAggregate(all, subtree)).toBe(false);
    const blind = { scope: null, blind: true, committed: new Set([key("a1")]) };
    expect(maySeeAggregate([key("a1")], blind)).toBe(true);
    expect(maySeeAggregate(all, blind)).toBe(false);
    expect(maySeeAggregate(all, { ...blind, committed: new Set(all) })).toBe(true);
  });

  it("a blind review is open until the grader has committed every leaf they may score", () => {
    const all = LEAVES.map(key);
    expect(blindReviewOpen(all, { scope: null, blind: false, committed: new Set() })).toBe(false);
    const v = { scope: leavesUnder(rows, [key("a")]), blind: true, committed: new Set([key("a1")]) };
    expect(blindReviewOpen(all, v)).toBe(true);
    // Out-of-scope leaves stay hidden, but the blind review of the subtree is done.
    const done = { ...v, committed: new Set([key("a1"), key("a2")]) };
    expect(blindReviewOpen(all, done)).toBe(false);
    expect(maySeeAggregate(all, done)).toBe(false);
  });

  it("a subtree grader's tree is rooted at their subtrees: j / k and the counts stay inside", () => {
    const p = payload({ b: { hidden: "scope", verdict: null }, c1: { hidden: "scope", verdict: null } }, "grader");
    p.viewer.assignment = { id: "x", nodeKeys: [key("a1"), key("a"), key("c")], blind: false };
    const m = new ReviewModel(p);
    // a1 is inside a: the outermost assigned nodes are the roots, in pre-order.
    expect(m.viewRoots).toEqual([key("a"), key("c")]);
    expect(m.viewSize).toBe(5);
    expect(m.leafOrder.map((i) => m.keyAt(i))).toEqual([key("a1"), key("a2"), key("c1")]);
    expect(m.stepLeaf(key("a2"), 1)).toBe(key("c1"));
    expect(m.inView(key("a1"))).toBe(true);
    expect(m.inView(key("b"))).toBe(false);
    // The subtree's own score shows: nothing under it is hidden.
    expect(m.scoreOf(key("a"))).not.toBeNull();
    // Without subtrees (or naming none that exists) the whole rubric.
    expect(new ReviewModel(payload()).viewRoots).toEqual([key("root")]);
    p.viewer.assignment = { id: "x", nodeKeys: ["00000000-0000-4000-8000-999999999999"], blind: false };
    expect(new ReviewModel(p).leafOrder).toHaveLength(4);
  });

  it("rows read each requirement on one line", () => {
    const m = new ReviewModel(payload());
    expect(m.rowTextOf(key("a1"))).toBe(
      rows
        .find((r) => r.nodeId === "a1")!
        .requirements.replace(/\s+/g, " ")
        .trim(),
    );
  });
});
