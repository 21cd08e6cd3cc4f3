/**
 * Blind review is blind (issue 10, item 5), against the built studio over HTTP on PGlite and
 * PostgreSQL: no answer to a grader carries a score that aggregates a verdict hidden from them,
 * and the public leaderboard publishes no score of a grading under an open blind review. The demo
 * seed assigns the demo grader the second agent's first run blind, and a subtree of the third
 * agent's second run.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { LeaderboardAgentGradings, LeaderboardView } from "@/lib/leaderboard/types";
import type { ReviewCommitResult, ReviewPayload } from "@/lib/review/types";
import { forbiddenAggregates, leakedAggregates, numbersIn } from "@/test/blind-review";
import { DEMO_PAPER_ID, api, signIn, waitFor } from "./harness";
import { studioSuite } from "./studio-suite";

const GRADER = { email: "grader@demo.rubric.studio", password: "grader-demo-pass" };

interface QueueItem {
  gradingId: string;
  agentName: string;
  runIndex: number;
  blind: boolean;
  nodeKeys: string[] | null;
}

function blindReviewSuite(kind: "pglite" | "postgres") {
  describe(`blind review is blind (${kind})`, () => {
    const studio = studioSuite(kind, "security-blind-review");
    let grader: string;
    let blind: QueueItem;
    let subtree: QueueItem;

    beforeAll(async () => {
      grader = await signIn(studio.url, GRADER.email, GRADER.password);
      const queue = await api<{ assignments: QueueItem[] }>(studio.url, grader, "GET", "/api/review-queue");
      expect(queue.status).toBe(200);
      blind = queue.body.assignments.find((a) => a.blind && a.nodeKeys === null)!;
      subtree = queue.body.assignments.find((a) => !a.blind && a.nodeKeys !== null)!;
      expect(blind && subtree).toBeTruthy();
    });

    const get = async <T>(cookie: string, url: string) => {
      const answer = await api<T>(studio.url, cookie, "GET", url);
      expect(answer.status, url).toBe(200);
      return answer.body;
    };
    const review = (cookie: string, id: string) => get<ReviewPayload>(cookie, `/api/gradings/${id}`);
    const board = () => get<LeaderboardView>("", "/api/leaderboard");
    const agentId = async (name: string) => (await board()).agents.find((a) => a.name === name)!.agentId;
    /** Every other answer the grader can get that names the grading. */
    const graderAnswers = async (item: QueueItem) => [
      await get(grader, `/api/papers/${DEMO_PAPER_ID}/gradings`),
      await get(grader, "/api/review-queue"),
      await get(grader, `/api/leaderboard/runs?agent=${await agentId(item.agentName)}`),
    ];

    it("a blind grader's answers carry no score aggregating a verdict hidden from them", async () => {
      const everything = await review(studio.staff, blind.gradingId);
      const payload = await review(grader, blind.gradingId);
      const hidden = payload.leaves.filter((l) => l.hidden === "blind").map((l) => l.key);
      expect(hidden).toHaveLength(payload.leaves.length);
      const forbidden = forbiddenAggregates(everything, hidden);
      expect(forbidden.has(everything.rootScore!)).toBe(true);
      expect(payload.rootScore).toBeNull();
      expect(leakedAggregates(payload, forbidden)).toEqual([]);
      expect(JSON.stringify(payload)).not.toContain("importedScore");
      for (const answer of await graderAnswers(blind)) expect(leakedAggregates(answer, forbidden)).toEqual([]);
      const runs = await get<LeaderboardAgentGradings>(
        grader,
        `/api/leaderboard/runs?agent=${await agentId(blind.agentName)}`,
      );
      expect(runs.papers.flatMap((p) => p.runs).find((r) => r.gradingId === blind.gradingId)).toMatchObject({
        score: null,
        pendingReview: true,
      });
      expect((await api(studio.url, grader, "GET", `/api/gradings/${blind.gradingId}/export`)).status).toBe(403);
    });

    it("a subtree grader's answers carry no score aggregating a verdict outside their subtree", async () => {
      const everything = await review(studio.staff, subtree.gradingId);
      const payload = await review(grader, subtree.gradingId);
      const hidden = payload.leaves.filter((l) => l.hidden === "scope").map((l) => l.key);
      expect(hidden.length).toBeGreaterThan(0);
      const forbidden = forbiddenAggregates(everything, hidden);
      expect(payload.rootScore).toBeNull();
      expect(leakedAggregates(payload, forbidden)).toEqual([]);
      for (const answer of await graderAnswers(subtree)) expect(leakedAggregates(answer, forbidden)).toEqual([]);
      const leaf = payload.leaves.find((l) => l.hidden === null)!;
      const committed = await api<ReviewCommitResult>(
        studio.url,
        grader,
        "POST",
        `/api/gradings/${subtree.gradingId}/scores`,
        { nodeKey: leaf.key, score: leaf.verdict!.score },
      );
      expect(committed.status).toBe(201);
      expect(committed.body.rootScore).toBeNull();
      expect(leakedAggregates(committed.body, forbidden)).toEqual([]);
    });

    it("the public leaderboard shows a run under an open blind review as pending, and publishes it once the review is done", async () => {
      const everything = await review(studio.staff, blind.gradingId);
      const pendingRow = (view: LeaderboardView) => view.agents.find((a) => a.name === blind.agentName)!;
      const before = pendingRow(await board());
      expect(before.excludedRuns).toEqual([
        expect.objectContaining({ run: blind.runIndex, reason: "pending_review", pendingPapers: [DEMO_PAPER_ID] }),
      ]);
      expect(before.perPaper[0].pendingRuns).toBe(1);
      expect(numbersIn(await board())).not.toContain(everything.rootScore);
      // The grader scores every leaf blind (agreeing with the judge): the review is done.
      for (const leaf of everything.leaves) {
        const answer = await api(studio.url, grader, "POST", `/api/gradings/${blind.gradingId}/scores`, {
          nodeKey: leaf.key,
          score: leaf.verdict!.score,
        });
        expect(answer.status).toBe(201);
      }
      const after = await waitFor("the reviewed run on the board", async () => {
        const row = pendingRow(await board());
        return row.excludedRuns.length === 0 ? row : undefined;
      });
      expect(after.runs.find((r) => r.run === blind.runIndex)!.score).toBe(everything.rootScore);
      expect((await review(grader, blind.gradingId)).rootScore).toBe(everything.rootScore);
    });
  });
}

blindReviewSuite("pglite");
if (process.env.DATABASE_URL) blindReviewSuite("postgres");
else if (process.env.CI === "true") {
  describe("blind review on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set: the PostgreSQL blind-review tests cannot run");
    });
  });
} else describe.skip("blind review on postgres (set DATABASE_URL to run)", () => it("needs DATABASE_URL", () => {}));
