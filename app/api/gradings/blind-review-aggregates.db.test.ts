/**
 * No answer to a grader carries a score that aggregates a verdict hidden from them (issue 10,
 * item 5): the root, an internal node's score, the imported file's root score, on the review
 * payload, a commit's answer, the paper's list of gradings, the review queue and the
 * leaderboard's drill-down. A blind grader sees the root once they have committed every leaf; a
 * subtree grader never does.
 */
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { addPaperMember } from "@/db/queries/papers";
import { createUser } from "@/db/queries/users";
import { ReviewModel } from "@/lib/review/review-model";
import type { ReviewCommitResult, ReviewPayload } from "@/lib/review/types";
import { importGrading } from "@/server/gradings/import-grading";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { DEMO_DIR, forbiddenAggregates, gradedDemoText, leakedAggregates } from "@/test/blind-review";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import type { JsonBody } from "@/test/json-body";
import { GET as getRuns } from "../leaderboard/runs/route";
import { GET as getPaperGradings } from "../papers/[paperId]/gradings/route";
import { GET as getReviewQueue } from "../review-queue/route";
import { POST as postAssignment } from "./[gradingId]/assignments/route";
import { GET as getExport } from "./[gradingId]/export/route";
import { GET as getLeaf } from "./[gradingId]/leaves/[nodeKey]/route";
import { GET as getGrading } from "./[gradingId]/route";
import { POST as postScore } from "./[gradingId]/scores/route";

// The session is the only thing mocked: the wrapper, access checks and queries run for real.
const session = vi.hoisted(() => ({ current: null as { userId: string; sessionId: string } | null }));
vi.mock("@/server/auth/session", () => ({
  getRequestSession: async () => session.current,
  getSessionUserId: async () => session.current?.userId ?? null,
}));

const globalForDb = globalThis as unknown as { __rubricStudioDb?: Promise<DbHandle> };
const PAPER = "demo-adaptive-clipping";

type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

async function call<P>(handler: Handler<P>, params: P, url: string, body?: unknown) {
  const init =
    body === undefined
      ? { method: "GET" }
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const res = await handler(new NextRequest(`http://localhost${url}`, init), { params: Promise.resolve(params) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, text, json: json as JsonBody };
}

describe.each(testDatabaseKinds())("aggregates over hidden verdicts on %s", (kind) => {
  let handle: DbHandle;
  const users = { staff: "", blind: "", subtree: "" };
  const sessions = { staff: "", blind: "", subtree: "" };
  const as = (who: keyof typeof users) => {
    session.current = { userId: users[who], sessionId: sessions[who] };
  };
  let blindGrading: string;
  let subtreeGrading: string;
  let agentId: string;

  const review = async (id: string) => {
    const r = await call(getGrading, { gradingId: id }, `/api/gradings/${id}`);
    expect(r.status).toBe(200);
    return r.json as unknown as ReviewPayload;
  };
  /** What staff see (everything), for the aggregates the grader must not get. */
  const everything = async (id: string) => {
    const before = session.current;
    as("staff");
    const payload = await review(id);
    session.current = before;
    return payload;
  };
  const commit = (id: string, nodeKey: string, score: number) =>
    call(postScore, { gradingId: id }, `/api/gradings/${id}/scores`, {
      nodeKey,
      score,
      reason: "checked",
      timeSpentMs: 1_000,
    });

  /** Every answer a grader can get about a grading (the review payload aside). */
  const otherAnswers = async (id: string) => {
    const paperList = await call(getPaperGradings, { paperId: PAPER }, `/api/papers/${PAPER}/gradings`);
    const queue = await call(getReviewQueue, {}, "/api/review-queue");
    const runs = await call(getRuns, {}, `/api/leaderboard/runs?agent=${agentId}`);
    expect([paperList.status, queue.status, runs.status]).toEqual([200, 200, 200]);
    const listed = (
      paperList.json.gradings as { id: string; score: number | null; importedScore: number | null }[]
    ).find((g) => g.id === id)!;
    const run = (runs.json.papers as { runs: { gradingId: string; score: number | null }[] }[])
      .flatMap((p) => p.runs)
      .find((r) => r.gradingId === id)!;
    return { paperList, queue, runs, listed, run };
  };

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    globalForDb.__rubricStudioDb = Promise.resolve(handle);
    for (const who of Object.keys(users) as (keyof typeof users)[]) {
      users[who] = (
        await createUser(handle.db, { email: `${who}@example.org`, name: who, isStaff: who === "staff" })
      ).id;
      const row = await handle.db.execute(
        sql`INSERT INTO user_sessions (user_id, expires_at) VALUES (${users[who]}, now() + interval '1 day') RETURNING id`,
      );
      sessions[who] = String((row.rows[0] as { id: string }).id);
    }
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: users.staff, source: "test" });
    for (const who of ["blind", "subtree"] as const) {
      await addPaperMember(handle.db, {
        paperId: PAPER,
        email: `${who}@example.org`,
        role: "grader",
        addedBy: users.staff,
      });
    }
    const graded = async (run: number) =>
      (
        await importGrading(handle, {
          paperId: PAPER,
          agentName: "agent A",
          runIndex: run,
          variant: "full",
          human: false,
          fileText: gradedDemoText(run),
          userId: null,
        })
      ).gradingId;
    blindGrading = await graded(1);
    subtreeGrading = await graded(2);
    as("staff");
    const rows = (await review(subtreeGrading)).nodes;
    const subtree = rows.find((n) => n.parentKey === rows[0].key)!;
    expect(
      (
        await call(postAssignment, { gradingId: blindGrading }, `/api/gradings/${blindGrading}/assignments`, {
          email: "blind@example.org",
          blind: true,
        })
      ).status,
    ).toBe(201);
    const assigned = await call(
      postAssignment,
      { gradingId: subtreeGrading },
      `/api/gradings/${subtreeGrading}/assignments`,
      {
        email: "subtree@example.org",
        nodeKeys: [subtree.key],
      },
    );
    expect(assigned.status).toBe(201);
    const agents = await handle.db.execute(sql`SELECT id FROM agents WHERE name = 'agent A'`);
    agentId = String((agents.rows[0] as { id: string }).id);
  });
  afterAll(async () => {
    session.current = null;
    globalForDb.__rubricStudioDb = undefined;
    await handle?.close();
  });

  it("a blind grader gets no root, internal, imported or listed score while a verdict is hidden from them", async () => {
    const id = blindGrading;
    const all = await everything(id);
    as("blind");
    const payload = await review(id);
    const hidden = payload.leaves.filter((l) => l.hidden).map((l) => l.key);
    expect(hidden).toHaveLength(payload.leaves.length);
    const forbidden = forbiddenAggregates(all, hidden);
    expect(all.rootScore).not.toBeNull();
    expect(forbidden.has(all.rootScore!)).toBe(true);
    expect(forbidden.size).toBeGreaterThan(3);
    expect(payload.rootScore).toBeNull();
    expect(leakedAggregates(payload, forbidden)).toEqual([]);
    expect(JSON.stringify(payload)).not.toContain("importedScore");

    const { paperList, queue, runs, listed, run } = await otherAnswers(id);
    expect(listed).toMatchObject({ score: null, importedScore: null });
    // The leaderboard's drill-down named the grading with its root score.
    expect(run.score).toBeNull();
    for (const answer of [paperList, queue, runs]) expect(leakedAggregates(answer.json, forbidden)).toEqual([]);
    expect((await call(getExport, { gradingId: id }, `/api/gradings/${id}/export`)).status).toBe(403);

    // Commit every leaf but the last (one of them overriding): no answer gives away the last verdict.
    const leaves = all.leaves;
    for (const [i, leaf] of leaves.slice(0, -1).entries()) {
      const score = i === 0 ? 1 - leaf.verdict!.score : leaf.verdict!.score;
      const answer = await commit(id, leaf.key, score);
      expect(answer.status).toBe(201);
      const result = answer.json as unknown as ReviewCommitResult;
      expect(result.rootScore).toBeNull();
      const stillForbidden = forbiddenAggregates(await everything(id), [leaves.at(-1)!.key]);
      expect(leakedAggregates(result, stillForbidden)).toEqual([]);
    }
    const last = leaves.at(-1)!;
    const before = forbiddenAggregates(await everything(id), [last.key]);
    const nearly = await review(id);
    expect(nearly.rootScore).toBeNull();
    expect(nearly.leaves.filter((l) => l.hidden).map((l) => l.key)).toEqual([last.key]);
    expect(leakedAggregates(nearly, before)).toEqual([]);
    // The page's model shows the scores of nodes whose leaves are all revealed, and none above the last one.
    const model = new ReviewModel(nearly);
    const parent = all.nodes.find((n) => n.key === last.key)!.parentKey!;
    expect(model.scoreOf(parent)).toBeNull();
    expect(model.rootScore).toBeNull();
    const others = await otherAnswers(id);
    expect(others.listed).toMatchObject({ score: null, importedScore: null });
    expect(others.run.score).toBeNull();
    const leafAnswer = await call(
      getLeaf,
      { gradingId: id, nodeKey: last.key },
      `/api/gradings/${id}/leaves/${last.key}`,
    );
    expect(leafAnswer.json).toMatchObject({ hidden: "blind", verdict: null, overrides: [], reviews: [] });

    // The last commit reveals everything: the root shows, in every answer, as staff see it.
    const done = (await commit(id, last.key, last.verdict!.score)).json as unknown as ReviewCommitResult;
    const full = await everything(id);
    expect(done.rootScore).toBe(full.rootScore);
    expect((await review(id)).rootScore).toBe(full.rootScore);
    const after = await otherAnswers(id);
    expect(after.listed.score).toBe(full.rootScore);
    expect(after.run.score).toBe(full.rootScore);
  });

  it("a subtree grader sees the aggregates of their subtree only", async () => {
    const id = subtreeGrading;
    const all = await everything(id);
    as("subtree");
    const payload = await review(id);
    const hidden = payload.leaves.filter((l) => l.hidden === "scope").map((l) => l.key);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.length).toBeLessThan(payload.leaves.length);
    const forbidden = forbiddenAggregates(all, hidden);
    expect(payload.rootScore).toBeNull();
    expect(leakedAggregates(payload, forbidden)).toEqual([]);
    expect(JSON.stringify(payload)).not.toContain("importedScore");
    // The page computes the assigned subtree's score (every leaf of it visible), to the bit, and nothing above it.
    const subtree = payload.viewer.assignment!.nodeKeys![0];
    const model = new ReviewModel(payload);
    const staffModel = new ReviewModel(all);
    expect(Object.is(model.scoreOf(subtree), staffModel.scoreOf(subtree))).toBe(true);
    expect(model.scoreOf(all.nodes[0].key)).toBeNull();
    const parentOf = new Map(all.nodes.map((n) => [n.key, n.parentKey]));
    const aboveHidden = new Set<string>();
    for (const leaf of hidden)
      for (let p = parentOf.get(leaf) ?? null; p !== null; p = parentOf.get(p) ?? null) aboveHidden.add(p);
    for (const n of all.nodes) {
      if (aboveHidden.has(n.key) || hidden.includes(n.key)) expect(model.scoreOf(n.key)).toBeNull();
      else expect(Object.is(model.scoreOf(n.key), staffModel.scoreOf(n.key))).toBe(true);
    }

    const { paperList, queue, runs, listed, run } = await otherAnswers(id);
    expect(listed).toMatchObject({ score: null, importedScore: null });
    expect(run.score).toBeNull();
    for (const answer of [paperList, queue, runs]) expect(leakedAggregates(answer.json, forbidden)).toEqual([]);

    // Committing in the subtree answers without the root, even once every assigned leaf is done.
    for (const leaf of payload.leaves.filter((l) => !l.hidden)) {
      const answer = await commit(id, leaf.key, leaf.verdict!.score);
      expect(answer.status).toBe(201);
      expect((answer.json as unknown as ReviewCommitResult).rootScore).toBeNull();
      expect(leakedAggregates(answer.json, forbidden)).toEqual([]);
    }
    expect((await review(id)).rootScore).toBeNull();
    expect((await otherAnswers(id)).run.score).toBeNull();
  });
});
