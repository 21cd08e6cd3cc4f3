import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { openTestDatabase } from "@/test/databases";
import { listAgents } from "@/db/queries/agents";
import { listGradingOverrides } from "@/db/queries/grading-verdicts";
import { getGradingById, listGradingsByPaperId } from "@/db/queries/gradings";
import { getPinnedGradedTree } from "@/server/gradings/pinned-grading";
import { getLeaderboard } from "@/server/leaderboard/leaderboard";
import { seedDemo } from "./seed";
import { DEMO_AGENTS, DEMO_RUNS } from "./seed-gradings";

const PAPER = "demo-adaptive-clipping";

describe("demo gradings in the seed", () => {
  let first: DbHandle;
  let second: DbHandle;
  beforeAll(async () => {
    first = await openTestDatabase("pglite");
    second = await openTestDatabase("pglite");
    await seedDemo(first.db);
    await seedDemo(second.db);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it("seeds agents with three judged runs each, one human grading and one override", async () => {
    expect((await listAgents(first.db)).map((a) => a.name).sort()).toEqual(DEMO_AGENTS.map((a) => a.name).sort());
    const gradings = await listGradingsByPaperId(first.db, PAPER);
    expect(gradings.filter((g) => g.kind === "judge")).toHaveLength(DEMO_AGENTS.length * DEMO_RUNS);
    expect(gradings.filter((g) => g.kind === "human")).toHaveLength(1);
    // Every grading pinned the one version of the live demo rubric.
    expect(new Set(gradings.map((g) => g.rubricVersionId)).size).toBe(1);
    const overridden = gradings.filter((g) => g.overrideCount > 0);
    expect(overridden).toHaveLength(1);
    expect((await listGradingOverrides(first.db, overridden[0].id))[0].user?.email).toBe("grader@demo.rubric.studio");
    for (const g of gradings) {
      const grading = (await getGradingById(first.db, g.id))!;
      expect(Object.is((await getPinnedGradedTree(first.db, grading)).scores.rootScore, grading.score)).toBe(true);
      expect(grading.source.warnings).toEqual([]);
    }
  });

  it("is the same data on every machine, and a leaderboard can be computed from it", async () => {
    const board = (h: DbHandle) => getLeaderboard(h, { variant: "full", split: "demo", dataSplits: { demo: [PAPER] } });
    const scores = async (h: DbHandle) => (await board(h)).agents.map((a) => [a.name, a.runs, a.mean, a.stdErr]);
    expect(await scores(first)).toEqual(await scores(second));
    const { agents } = await board(first);
    expect(agents).toHaveLength(DEMO_AGENTS.length);
    expect(agents.flatMap((a) => a.excludedRuns).filter((r) => r.reason === "pending_review")).toHaveLength(1);
    for (const agent of agents) {
      // The demo grader's blind review (seedDemoAssignments) keeps one run of one agent pending.
      const pending = agent.excludedRuns.filter((r) => r.reason === "pending_review").length;
      expect(agent.nRuns + pending).toBe(DEMO_RUNS);
      expect(agent.mean).toBeGreaterThan(0);
      expect(agent.mean).toBeLessThan(1);
    }
  });
});
