/**
 * The public leaderboard publishes no score of a grading under an open blind review (issue 10,
 * item 5): the run shows as pending review, the agent's mean uses its other complete runs (or
 * waits), and the score appears once the blind grader has committed every leaf they may score,
 * or once the assignment is taken back.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { addPaperMember } from "@/db/queries/papers";
import { createUser } from "@/db/queries/users";
import { numpyMean } from "@/lib/grading/stats";
import type { LeaderboardAgentGradings, LeaderboardAgentRow, LeaderboardView } from "@/lib/leaderboard/types";
import type { ReviewPayload } from "@/lib/review/types";
import { importGrading } from "@/server/gradings/import-grading";
import { getLeaderboard } from "@/server/leaderboard/leaderboard";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { DEMO_DIR, gradedDemoText, numbersIn } from "@/test/blind-review";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import type { JsonBody } from "@/test/json-body";
import { DELETE as deleteAssignment } from "../gradings/[gradingId]/assignments/[assignmentId]/route";
import { POST as postAssignment } from "../gradings/[gradingId]/assignments/route";
import { GET as getGrading } from "../gradings/[gradingId]/route";
import { POST as postScore } from "../gradings/[gradingId]/scores/route";
import { GET as getRuns } from "./runs/route";
import { GET as getBoard } from "./route";

// The session is the only thing mocked: the wrapper, access checks and queries run for real.
const session = vi.hoisted(() => ({ current: null as { userId: string; sessionId: string } | null }));
vi.mock("@/server/auth/session", () => ({
  getRequestSession: async () => session.current,
  getSessionUserId: async () => session.current?.userId ?? null,
}));

const globalForDb = globalThis as unknown as { __rubricStudioDb?: Promise<DbHandle> };
const PAPER = "demo-adaptive-clipping";

type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

async function call<P>(handler: Handler<P>, params: P, url: string, method = "GET", body?: unknown) {
  const init =
    body === undefined
      ? { method }
      : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const res = await handler(new NextRequest(`http://localhost${url}`, init), { params: Promise.resolve(params) });
  const text = await res.text();
  return { status: res.status, text, json: (text ? JSON.parse(text) : null) as JsonBody };
}

describe.each(testDatabaseKinds())("the leaderboard while a blind review is open, on %s", (kind) => {
  let handle: DbHandle;
  const users = { staff: "", blind: "", blindSubtree: "" };
  const sessions = { staff: "", blind: "", blindSubtree: "" };
  const as = (who: keyof typeof users | null) => {
    session.current = who ? { userId: users[who], sessionId: sessions[who] } : null;
  };
  let dataDir: string | undefined;
  /** A's runs 1–3 and B's run 1, by name. */
  const gradings: Record<"a1" | "a2" | "a3" | "b1", string> = { a1: "", a2: "", a3: "", b1: "" };
  const root: Record<keyof typeof gradings, number> = { a1: 0, a2: 0, a3: 0, b1: 0 };
  let subtree: string;

  const board = async () => {
    const res = await call(getBoard, {}, "/api/leaderboard");
    expect(res.status).toBe(200);
    return res.json as unknown as LeaderboardView;
  };
  /** The board as a request that checks for changes at once sees it (the route may reuse a check for 250 ms). */
  const freshBoard = () => getLeaderboard(handle, { variant: "full", maxStaleMs: 0 });
  const agent = (view: LeaderboardView, name: string) => view.agents.find((a) => a.name === name)!;
  const review = async (id: string) =>
    (await call(getGrading, { gradingId: id }, `/api/gradings/${id}`)).json as unknown as ReviewPayload;
  const assign = (id: string, body: { email: string; blind: boolean; nodeKeys?: string[] }) =>
    call(postAssignment, { gradingId: id }, `/api/gradings/${id}/assignments`, "POST", body);
  /** The grader commits the judge's score on every leaf they may score. */
  const reviewEverything = async (who: keyof typeof users, id: string) => {
    as("staff");
    const verdicts = new Map((await review(id)).leaves.map((l) => [l.key, l.verdict!.score]));
    as(who);
    for (const leaf of (await review(id)).leaves.filter((l) => l.hidden !== "scope")) {
      const res = await call(postScore, { gradingId: id }, `/api/gradings/${id}/scores`, "POST", {
        nodeKey: leaf.key,
        score: verdicts.get(leaf.key)!,
        timeSpentMs: 10,
      });
      expect(res.status).toBe(201);
    }
  };

  beforeAll(async () => {
    // No PaperBench splits: `all` is every graded paper (the demo paper).
    dataDir = process.env.PAPERBENCH_DATA_DIR;
    process.env.PAPERBENCH_DATA_DIR = path.join(process.cwd(), "no-such-paperbench-data");
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
    for (const who of ["blind", "blindSubtree"] as const) {
      await addPaperMember(handle.db, {
        paperId: PAPER,
        email: `${who}@example.org`,
        role: "grader",
        addedBy: users.staff,
      });
    }
    const runs = [
      ["a1", "agent A", 1],
      ["a2", "agent A", 2],
      ["a3", "agent A", 3],
      ["b1", "agent B", 1],
    ] as const;
    for (const [name, agentName, run] of runs) {
      const result = await importGrading(handle, {
        paperId: PAPER,
        agentName,
        runIndex: run,
        variant: "full",
        human: false,
        fileText: gradedDemoText(run + (name === "b1" ? 3 : 0)),
        userId: null,
      });
      gradings[name] = result.gradingId;
      root[name] = result.score;
    }
    expect(new Set(Object.values(root)).size).toBe(4);
    as("staff");
    const nodes = (await review(gradings.b1)).nodes;
    subtree = nodes.find((n) => n.parentKey === nodes[0].key)!.key;
    expect((await assign(gradings.a1, { email: "blind@example.org", blind: true })).status).toBe(201);
    expect(
      (await assign(gradings.b1, { email: "blindSubtree@example.org", blind: true, nodeKeys: [subtree] })).status,
    ).toBe(201);
    // A review that is not blind changes nothing on the board.
    expect((await assign(gradings.a2, { email: "blindSubtree@example.org", blind: false })).status).toBe(201);
  });
  afterAll(async () => {
    session.current = null;
    globalForDb.__rubricStudioDb = undefined;
    if (dataDir === undefined) delete process.env.PAPERBENCH_DATA_DIR;
    else process.env.PAPERBENCH_DATA_DIR = dataDir;
    await handle?.close();
  });

  it("shows a run under an open blind review as pending review, and the agent's mean over its other runs", async () => {
    as(null);
    const view = await board();
    const a = agent(view, "agent A");
    expect(a.runs).toEqual([
      { run: 2, score: root.a2 },
      { run: 3, score: root.a3 },
    ]);
    expect(a.mean).toBe(numpyMean([root.a2, root.a3]));
    expect(a.excludedRuns).toEqual([
      {
        run: 1,
        reason: "pending_review",
        missingPapers: [],
        pendingPapers: [PAPER],
        message: `pending review: a blind review is open on ${PAPER}`,
      },
    ]);
    expect(a.perPaper).toEqual([
      { paperId: PAPER, mean: numpyMean([root.a2, root.a3]), stdErr: expect.any(Number), nRuns: 2, pendingRuns: 1 },
    ]);
    // B's only run is pending: its mean waits.
    const b = agent(view, "agent B");
    expect(b).toMatchObject({
      rank: null,
      mean: null,
      stdErr: null,
      nRuns: 0,
      runs: [],
    } satisfies Partial<LeaderboardAgentRow>);
    expect(b.perPaper).toEqual([{ paperId: PAPER, mean: null, stdErr: null, nRuns: 0, pendingRuns: 1 }]);
    expect(view.excluded).toMatchObject({ runs: 2, pendingReview: 2 });
    // Neither pending score, nor a mean that counts one, is anywhere on the board.
    const shown = numbersIn(view);
    for (const secret of [root.a1, root.b1, numpyMean([root.a1, root.a2, root.a3])])
      expect(shown).not.toContain(secret);
  });

  it("the drill-down marks the pending run; its grader gets no score of it", async () => {
    const agentId = agent(await board(), "agent A").agentId;
    const runsOf = async () => {
      const res = await call(getRuns, {}, `/api/leaderboard/runs?agent=${agentId}`);
      expect(res.status).toBe(200);
      return (res.json as unknown as LeaderboardAgentGradings).papers.flatMap((p) => p.runs);
    };
    as("staff");
    expect((await runsOf()).map((r) => [r.run, r.score, r.pendingReview])).toEqual([
      [1, root.a1, true],
      [2, root.a2, false],
      [3, root.a3, false],
    ]);
    as("blind");
    const mine = await runsOf();
    expect(mine.map((r) => [r.run, r.score, r.pendingReview])).toEqual([[1, null, true]]);
    expect(numbersIn(mine)).not.toContain(root.a1);
  });

  it("publishes the score once the blind review is done, or the blind assignment is taken back", async () => {
    await reviewEverything("blind", gradings.a1);
    let view = await freshBoard();
    expect(agent(view, "agent A")).toMatchObject({
      nRuns: 3,
      excludedRuns: [],
      mean: numpyMean([root.a1, root.a2, root.a3]),
    });
    // B's grader has the leaves of one subtree to score blind: done with those, the review is done.
    expect(agent(view, "agent B").nRuns).toBe(0);
    await reviewEverything("blindSubtree", gradings.b1);
    view = await freshBoard();
    expect(agent(view, "agent B")).toMatchObject({ nRuns: 1, mean: root.b1 });
    expect(view.excluded.pendingReview).toBe(0);

    // A new blind assignment takes a run off the board at once; taking it back puts it on again.
    as("staff");
    const assigned = await assign(gradings.a3, { email: "blind@example.org", blind: true });
    view = await freshBoard();
    expect(agent(view, "agent A").excludedRuns.map((x) => [x.run, x.reason])).toEqual([[3, "pending_review"]]);
    const removed = await call(
      deleteAssignment,
      { gradingId: gradings.a3, assignmentId: assigned.json.assignment.id },
      `/api/gradings/${gradings.a3}/assignments/${assigned.json.assignment.id}`,
      "DELETE",
    );
    expect(removed.status).toBe(200);
    expect(agent(await freshBoard(), "agent A").nRuns).toBe(3);
  });
});
