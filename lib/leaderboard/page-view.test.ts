import { describe, expect, it } from "vitest";
import { pageViewOf, sameRow } from "./page-view";
import { AS_GRADED_BASIS, LEADERBOARD_VARIANTS, type LeaderboardAgentRow, type LeaderboardView } from "./types";

const papers = Array.from({ length: 20 }, (_, i) => `paper-${i}`);

function row(agentId: string, placeholder = false, pending = 0): LeaderboardAgentRow {
  return {
    rank: 1,
    agentId,
    name: `agent ${agentId}`,
    model: null,
    scaffold: null,
    isDemo: false,
    mean: 0.5,
    stdErr: 0.01,
    nRuns: 3,
    runs: [1, 2, 3].map((run) => ({ run, score: 0.5 })),
    excludedRuns: [],
    perPaper: papers.map((paperId, i) => ({
      paperId,
      mean: 0.5,
      stdErr: 0.02,
      nRuns: 3,
      pendingRuns: i === 0 ? pending : 0,
    })),
    judgeModels: ["model"],
    countedGradings: 60,
    reviewedGradings: 0,
    humanReviewed: false,
    coverage: { papers: 20, of: 20, mean: 0.5 },
    basis: AS_GRADED_BASIS,
    method: placeholder
      ? { kind: "placeholder", label: "Dummy judge" }
      : { kind: "paperbench", label: "PaperBench method" },
    isHuman: false,
    agreement: null,
  } as LeaderboardAgentRow;
}

function board(agents: LeaderboardAgentRow[]): LeaderboardView {
  return {
    split: "all",
    variant: "full",
    paper: null,
    splits: [],
    variants: LEADERBOARD_VARIANTS,
    papers: papers.map((id) => ({ id, title: id })),
    gradedPapers: [],
    agents,
    excluded: { runs: 0, incomplete: 0, duplicatePapers: 0, pendingReview: 0 },
    latestGradingAt: null,
    placeholderHidden: 0,
  };
}

describe("pageViewOf", () => {
  it("keeps the breakdown of the open rows only, and what the closed rows show", () => {
    const view = board(Array.from({ length: 50 }, (_, i) => row(`a${i}`, false, i === 7 ? 2 : 0)));
    const page = pageViewOf(view, new Set(["a3"]));
    expect(page.agents.map((a) => a.agentId)).toEqual(view.agents.map((a) => a.agentId));
    expect(page.agents[3].detail).toEqual({ runs: view.agents[3].runs, perPaper: view.agents[3].perPaper });
    expect(page.agents.filter((a) => a.detail !== null)).toHaveLength(1);
    expect(page.agents.map((a) => a.hasPendingPapers)).toEqual(view.agents.map((_, i) => i === 7));
    expect(page.agents[0]).not.toHaveProperty("perPaper");
    expect(page.agents[0]).toMatchObject({ mean: 0.5, stdErr: 0.01, nRuns: 3, coverage: { papers: 20, of: 20 } });
    // The point of it: a fifty-agent board of twenty papers is a fraction of its bytes.
    expect(JSON.stringify(page).length).toBeLessThan(JSON.stringify(view).length / 3);
  });

  it("tells an agent's placeholder judge's row from its own", () => {
    expect(sameRow(row("a"), row("a"))).toBe(true);
    expect(sameRow(row("a"), row("a", true))).toBe(false);
    expect(sameRow(row("a"), row("b"))).toBe(false);
  });
});
