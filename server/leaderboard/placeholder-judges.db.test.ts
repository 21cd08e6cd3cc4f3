import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { insertSyntheticGradings, type SyntheticGrading } from "@/db/leaderboard-fixture.testutil";
import { DEFAULT_POLICIES } from "@/lib/evaluations/default-policies";
import { PLACEHOLDER_LABEL } from "@/lib/evaluations/scoring-method";
import { createEvaluation } from "@/server/evaluations/create-evaluation";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { getLeaderboardAgentGradings } from "./drill-down";
import { getLeaderboard, getLeaderboardJson, type LeaderboardAudience } from "./leaderboard";

const SPLITS = { duo: ["p1", "p2"] };
const runs = (
  agent: string,
  scores: number[][],
  judge: SyntheticGrading["judge"],
  extra: Partial<SyntheticGrading> = {},
): SyntheticGrading[] =>
  scores.flatMap((perPaper, i) =>
    perPaper.map((score, p) => ({ agent, paper: `p${p + 1}`, run: i + 1, score, judge, ...extra })),
  );

/**
 * Placeholder judges (Dummy, Random) never reach the public board; members see them, unranked and
 * marked. Rows say how they were judged: "PaperBench method" only for a model judge in paperbench
 * mode under PaperBench's default policies.
 */
describe.each(testDatabaseKinds())("placeholder judges and scoring marks on the leaderboard on %s", (kind) => {
  let handle: DbHandle;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await insertSyntheticGradings(handle.db, [
      // An evaluation judged by the Dummy judge: every leaf 1, so 100%, which used to lead the board.
      ...runs(
        "Dummy-judged",
        [
          [1, 1],
          [1, 1],
        ],
        { kind: "dummy" },
        { judgeModel: "dummy" },
      ),
      // An evaluation judged by a model judge in paperbench mode under PaperBench's default policies.
      ...runs(
        "PaperBench-judged",
        [
          [0.4, 0.5],
          [0.3, 0.6],
        ],
        { kind: "llm", mode: "paperbench", policies: DEFAULT_POLICIES },
      ),
      // The same, under a custom policy.
      ...runs("Custom-policy", [[0.2, 0.2]], { kind: "llm", mode: "paperbench" }),
      // No evaluation: a model judge in efficient mode, as graded.
      ...runs("Efficient-judged", [[0.35, 0.35]], { kind: "llm", mode: "efficient" }),
      // A run a model judge graded, then Random re-graded (newer): the public board keeps the real one.
      ...runs("Regraded", [[0.25, 0.25]], { kind: "llm", mode: "efficient" }, { createdAt: "2025-01-01T00:00:00Z" }),
      ...runs(
        "Regraded",
        [[0.9, 0.9]],
        { kind: "random" },
        { judgeModel: "random", createdAt: "2025-02-01T00:00:00Z" },
      ),
      // Only a placeholder ever graded this agent, on a third paper nobody else has.
      { agent: "Random-only", paper: "p3", run: 1, score: 0.7, judge: { kind: "random" }, judgeModel: "random" },
    ]);
    for (const [agent, runCount, policies] of [
      ["Dummy-judged", 2, DEFAULT_POLICIES],
      ["PaperBench-judged", 2, DEFAULT_POLICIES],
      ["Custom-policy", 1, { ...DEFAULT_POLICIES, reproduction_failed: "exclude" as const }],
    ] as const) {
      await createEvaluation(
        handle,
        { name: `${agent} on duo`, agent, split: "custom", paperIds: ["p1", "p2"], runs: runCount, policies },
        null,
      );
    }
    await handle.db.execute(
      sql`UPDATE submissions s SET evaluation_id = e.id FROM evaluations e WHERE e.agent_id = s.agent_id`,
    );
  });
  afterAll(async () => {
    await handle?.close();
  });

  const board = (audience: LeaderboardAudience | undefined, extra: { paper?: string; split?: string } = {}) =>
    getLeaderboard(handle, {
      split: "duo",
      variant: "full",
      dataSplits: SPLITS,
      ...(audience ? { audience } : {}),
      ...extra,
    });

  it("leaves a Dummy-judged evaluation out of the public board, and out of it by default", async () => {
    for (const audience of ["public", undefined] as const) {
      const view = await board(audience);
      const names = view.agents.map((a) => a.name);
      expect(names).not.toContain("Dummy-judged");
      expect(names).not.toContain("Random-only");
      expect(view.agents[0].name).toBe("PaperBench-judged");
      expect(view.agents[0].rank).toBe(1);
      expect(view.agents.every((a) => a.method.kind !== "placeholder")).toBe(true);
    }
  });

  it("counts a run's real grading publicly when a placeholder re-graded it later", async () => {
    const regraded = (await board("public")).agents.find((a) => a.name === "Regraded")!;
    expect(regraded.mean).toBe(0.25);
    expect(regraded.method).toEqual({ kind: "efficient", label: "efficient mode" });
  });

  it("shows members the public's rows and ranks, then the placeholder judges' rows apart, marked and unranked", async () => {
    const view = await board("members");
    const publicView = await board("public");
    const dummy = view.agents.find((a) => a.name === "Dummy-judged")!;
    expect(dummy).toBeDefined();
    expect(dummy.mean).toBe(1);
    expect(dummy.rank).toBeNull();
    expect(dummy.method).toEqual({ kind: "placeholder", label: PLACEHOLDER_LABEL });
    // The members' board starts with the public's rows, ranks and marks exactly.
    const strip = (agents: typeof view.agents) => agents.map((a) => [a.name, a.rank, a.mean, a.method.kind]);
    expect(strip(view.agents.slice(0, publicView.agents.length))).toEqual(strip(publicView.agents));
    // A run re-graded by Random: its real grading among the public's, the Random one apart.
    const regraded = view.agents.filter((a) => a.name === "Regraded");
    expect(regraded.map((a) => [a.mean, a.method.kind, a.rank === null])).toEqual([
      [0.25, "efficient", false],
      [0.9, "placeholder", true],
    ]);
    expect(
      view.agents.slice(publicView.agents.length).every((a) => a.method.kind === "placeholder" && a.rank === null),
    ).toBe(true);
  });

  it("lets members open a placeholder judge's grading from its row", async () => {
    const agentId = (await board("members")).agents.find((a) => a.name === "Dummy-judged")!.agentId;
    const drill = await getLeaderboardAgentGradings(handle, {
      split: "duo",
      variant: "full",
      dataSplits: SPLITS,
      audience: "members",
      agentId,
      access: { all: true },
    });
    expect(drill.papers.flatMap((p) => p.runs.map((r) => r.score))).toEqual([1, 1, 1, 1]);
  });

  it("marks PaperBench method only for a model judge in paperbench mode under the default policies", async () => {
    const view = await board("public");
    const method = (name: string) => view.agents.find((a) => a.name === name)!.method;
    expect(method("PaperBench-judged")).toEqual({ kind: "paperbench", label: "PaperBench method" });
    expect(method("Custom-policy")).toEqual({ kind: "custom_policies", label: "paperbench mode · custom policies" });
    expect(method("Efficient-judged")).toEqual({ kind: "efficient", label: "efficient mode" });
  });

  it("publishes no paper only a placeholder graded, nor its per-paper board's scores", async () => {
    const publicView = await board("public");
    expect(publicView.gradedPapers.map((p) => p.id)).not.toContain("p3");
    expect((await board("members")).gradedPapers.map((p) => p.id)).toContain("p3");
    const perPaper = await board("public", { paper: "p3" });
    expect(perPaper.agents).toEqual([]);
    // The empty board can say why: one grading left out, a placeholder's.
    expect(perPaper.placeholderHidden).toBe(1);
    expect((await board("members", { paper: "p3" })).placeholderHidden).toBe(0);
    const membersPerPaper = await board("members", { paper: "p3" });
    expect(membersPerPaper.agents.map((a) => a.name)).toContain("Random-only");
  });

  it("gives the public API body and the members' their own entity tags", async () => {
    const publicJson = await getLeaderboardJson(handle, { split: "duo", variant: "full", dataSplits: SPLITS });
    const membersJson = await getLeaderboardJson(handle, {
      split: "duo",
      variant: "full",
      dataSplits: SPLITS,
      audience: "members",
    });
    expect(publicJson.etag).not.toBe(membersJson.etag);
    expect(publicJson.body).not.toContain("Dummy-judged");
    expect(publicJson.body).not.toContain("Random-only");
    expect(membersJson.body).toContain("Dummy-judged");
  });
});
