import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { addPaperMember } from "@/db/queries/papers";
import { createUser } from "@/db/queries/users";
import { gradingAssignments } from "@/db/schema";
import { DEMO_AGENTS, DEMO_RUNS, seedDemoGradings } from "@/server/seed/seed-gradings";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import type { JsonBody } from "@/test/json-body";
import { GET as getGrading } from "../gradings/[gradingId]/route";
import { GET as getCandidates, POST as postEvaluate } from "../judge-eval/route";
import { GET as getResults, POST as postResults } from "../judge-eval/results/route";
import { GET as getRuns } from "./runs/route";
import { GET as getLeaderboard } from "./route";

// The session is the only thing mocked: the wrapper, access checks and queries run for real.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("@/server/auth/session", () => ({
  getRequestSession: async () => (await import("@/test/mock-session")).liveSessionOf(session.userId),
}));

const globalForDb = globalThis as unknown as { __rubricStudioDb?: Promise<DbHandle> };
const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const PAPER = "demo-adaptive-clipping";

type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

async function call(
  handler: Handler<Record<string, string>>,
  url: string,
  init: { method?: string; body?: string } = {},
) {
  const res = await handler(
    new NextRequest(`http://localhost${url}`, {
      ...init,
      headers: init.body ? { "content-type": "application/json" } : {},
    }),
    { params: Promise.resolve({}) },
  );
  const text = await res.text();
  let json: JsonBody = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, text, json, headers: res.headers };
}

describe.each(testDatabaseKinds())("leaderboard and JudgeEval routes on %s", (kind) => {
  let handle: DbHandle;
  const users: Record<"staff" | "author" | "grader" | "outsider", string> = {
    staff: "",
    author: "",
    grader: "",
    outsider: "",
  };
  const as = (who: keyof typeof users | null) => {
    session.userId = who ? users[who] : null;
  };
  let dataDir: string | undefined;
  let gradingId: string;
  let agentId: string;

  beforeAll(async () => {
    // No PaperBench splits: `all` is every graded paper (the demo paper).
    dataDir = process.env.PAPERBENCH_DATA_DIR;
    process.env.PAPERBENCH_DATA_DIR = path.join(process.cwd(), "no-such-paperbench-data");
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
    await seedDemoGradings(handle.db, { paperIds: [PAPER], staffId: users.staff, reviewerId: users.grader });
  });
  afterAll(async () => {
    session.userId = null;
    globalForDb.__rubricStudioDb = undefined;
    if (dataDir === undefined) delete process.env.PAPERBENCH_DATA_DIR;
    else process.env.PAPERBENCH_DATA_DIR = dataDir;
    await handle?.close();
  });

  it("signed out: the leaderboard, scores only", async () => {
    as(null);
    const res = await call(getLeaderboard, "/api/leaderboard");
    expect(res.status).toBe(200);
    expect(res.json.split).toBe("all");
    expect(res.json.variant).toBe("full");
    expect(res.json.papers).toEqual([{ id: PAPER, title: expect.any(String) }]);
    expect(res.json.agents).toHaveLength(DEMO_AGENTS.length);
    for (const agent of res.json.agents) expect(agent.nRuns).toBe(DEMO_RUNS);
    // Ranked by mean, highest first.
    const means = res.json.agents.map((a: { mean: number }) => a.mean);
    expect(means).toEqual([...means].sort((a: number, b: number) => b - a));
    expect(res.json.agents[0].judgeModels).toEqual(["o3-mini-2025-01-31"]);
    // The demo's agents say they are: the board shows them with a demo badge.
    expect(res.json.agents.map((a: { isDemo: boolean }) => a.isDemo)).toEqual(DEMO_AGENTS.map(() => true));
    // Nothing of the rubric or the judge's reasoning, and no way into the gradings.
    expect(res.text).not.toMatch(/requirement|explanation|synthetic demo verdict|gradingId|judge_metadata/i);
    agentId = res.json.agents[0].agentId;
    // The same board again: a client with its ETag gets a 304.
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"lb-/);
    const again = await getLeaderboard(
      new NextRequest("http://localhost/api/leaderboard", { headers: { "if-none-match": etag } }),
      { params: Promise.resolve({}) },
    );
    expect(again.status).toBe(304);

    const codeDev = await call(getLeaderboard, "/api/leaderboard?variant=code-dev&split=all");
    expect(codeDev.status).toBe(200);
    expect(codeDev.json.agents).toEqual([]);
    const unknownSplit = await call(getLeaderboard, "/api/leaderboard?split=nope");
    expect(unknownSplit.status).toBe(400);
    expect(unknownSplit.json.error.details[0].path).toBe("split");
    expect((await call(getLeaderboard, "/api/leaderboard?variant=both")).status).toBe(400);

    // The per-paper board: every agent's runs on the paper, its own ETag.
    const paper = await call(getLeaderboard, `/api/leaderboard?split=all&paper=${PAPER}`);
    expect(paper.status).toBe(200);
    expect(paper.json.paper).toEqual({ id: PAPER, title: expect.any(String) });
    expect(paper.json.agents.map((a: { name: string; nRuns: number }) => [a.name, a.nRuns])).toEqual(
      res.json.agents.map((a: { name: string }) => [a.name, DEMO_RUNS]),
    );
    expect(paper.headers.get("etag")).not.toBe(etag);
    const unknownPaper = await call(getLeaderboard, "/api/leaderboard?split=all&paper=no-such-paper");
    expect(unknownPaper.status).toBe(400);
    expect(unknownPaper.json.error.details[0].path).toBe("paper");
    expect((await call(getLeaderboard, "/api/leaderboard?paper=%3Cscript%3E")).status).toBe(400);
  });

  it("signed out: 401 on the drill-down, JudgeEval, gradings and their explanations", async () => {
    as("staff");
    const runs = await call(getRuns, `/api/leaderboard/runs?agent=${agentId}`);
    gradingId = runs.json.papers[0].runs[0].gradingId;
    as(null);
    const body = JSON.stringify({ submissionIds: [crypto.randomUUID()] });
    const responses = [
      await call(getRuns, `/api/leaderboard/runs?agent=${agentId}`),
      await call(getCandidates, "/api/judge-eval"),
      await call(postEvaluate, "/api/judge-eval", { method: "POST", body }),
      await call(getResults, `/api/judge-eval/results?paper=${PAPER}`),
      await call(postResults, "/api/judge-eval/results", { method: "POST", body }),
      await call(getGrading as unknown as Handler<Record<string, string>>, `/api/gradings/${gradingId}`),
    ];
    for (const r of responses) {
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe("unauthorized");
      expect(r.text).not.toMatch(/synthetic demo|requirements/);
    }
  });

  it("signed in: members drill down to the gradings they may open", async () => {
    as("author");
    const own = await call(getRuns, `/api/leaderboard/runs?agent=${agentId}&split=all&variant=full`);
    expect(own.status).toBe(200);
    expect(own.json.papers).toHaveLength(1);
    const runs = own.json.papers[0].runs as { run: number; gradingId: string }[];
    expect(runs.map((r) => r.run)).toEqual([1, 2, 3]);
    expect(own.json.hiddenPapers).toBe(0);
    // A grader: only the gradings assigned to them (the review page's rule).
    as("grader");
    expect((await call(getRuns, `/api/leaderboard/runs?agent=${agentId}`)).json.papers[0].runs).toEqual([]);
    await handle.db
      .insert(gradingAssignments)
      .values({ gradingId: runs[1].gradingId, userId: users.grader, assignedBy: users.staff });
    const assigned = await call(getRuns, `/api/leaderboard/runs?agent=${agentId}`);
    expect(assigned.json.papers[0].runs.map((r: { run: number }) => r.run)).toEqual([2]);
    as("outsider");
    const other = await call(getRuns, `/api/leaderboard/runs?agent=${agentId}`);
    expect(other.status).toBe(200);
    expect(other.json).toMatchObject({ papers: [], hiddenPapers: 1 });
    expect((await call(getRuns, "/api/leaderboard/runs?agent=nope")).status).toBe(400);
    // The public board looks the same signed in.
    const board = await call(getLeaderboard, "/api/leaderboard");
    expect(board.text).not.toMatch(/gradingId/);
  });

  it("JudgeEval: staff and the paper's authors; graders and outsiders are refused", async () => {
    as("author");
    const candidates = await call(getCandidates, "/api/judge-eval");
    expect(candidates.status).toBe(200);
    // The seed's human grading of the first agent's first run, against its judge grading.
    expect(candidates.json.candidates).toHaveLength(1);
    const [candidate] = candidates.json.candidates;
    expect(candidate).toMatchObject({
      paperId: PAPER,
      agentName: DEMO_AGENTS[0].name,
      runIndex: 1,
      truth: "human_grading",
    });
    const report = await call(postEvaluate, "/api/judge-eval", {
      method: "POST",
      body: JSON.stringify({ submissionIds: [candidate.submissionId] }),
    });
    expect(report.status).toBe(200);
    expect(report.json.overall.num_samples).toBeGreaterThan(0);
    expect(report.json.disagreementCount).toBeGreaterThan(0);
    expect(report.json.disagreements[0]).toMatchObject({
      judgeGradingId: candidate.judgeGradingId,
      human: expect.any(Number),
      judge: expect.any(Number),
    });
    const file = await call(getResults, `/api/judge-eval/results?paper=${PAPER}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="judge-eval-${PAPER}-results.json"`);
    expect(file.json.aggregate_metrics.overall.accuracy).toBe(report.json.overall.accuracy);
    const bySubmission = await call(getResults, `/api/judge-eval/results?submission=${candidate.submissionId}`);
    expect(bySubmission.text.replace(/"timestamp": "\d+_\d+"/, "")).toBe(
      file.text.replace(/"timestamp": "\d+_\d+"/, ""),
    );
    expect(
      (await call(postEvaluate, "/api/judge-eval", { method: "POST", body: JSON.stringify({ submissionIds: ["x"] }) }))
        .status,
    ).toBe(400);

    as("grader");
    expect((await call(getCandidates, `/api/judge-eval?paper=${PAPER}`)).status).toBe(403);
    expect((await call(getCandidates, "/api/judge-eval")).json.candidates).toEqual([]);
    const graderEval = await call(postEvaluate, "/api/judge-eval", {
      method: "POST",
      body: JSON.stringify({ submissionIds: [candidate.submissionId] }),
    });
    expect(graderEval.status).toBe(404);
    expect(graderEval.text).not.toMatch(/requirements/);

    as("outsider");
    expect((await call(getCandidates, `/api/judge-eval?paper=${PAPER}`)).status).toBe(403);
    expect((await call(getResults, `/api/judge-eval/results?submission=${candidate.submissionId}`)).status).toBe(404);

    as("staff");
    const staff = await call(getCandidates, "/api/judge-eval");
    expect(staff.json.candidates).toHaveLength(1);
    const pooled = await call(postResults, "/api/judge-eval/results", {
      method: "POST",
      body: JSON.stringify({ submissionIds: [candidate.submissionId] }),
    });
    expect(pooled.status).toBe(200);
    expect(pooled.json.results).toHaveLength(1);
  });
});
