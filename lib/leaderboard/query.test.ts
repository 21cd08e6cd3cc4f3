import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { leaderboardHref, parseLeaderboardParams, parseOpenAgents } from "./query";

const A = "0b8a4c52-3f7e-4b8e-9d7c-1a2b3c4d5e6f";
const B = "5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6";

describe("the leaderboard's URL", () => {
  it("reads split, variant and paper; empty values count as absent", () => {
    expect(parseLeaderboardParams(new URLSearchParams("split=lite&variant=code-dev&paper=pinn"))).toEqual({
      split: "lite",
      variant: "code-dev",
      paper: "pinn",
    });
    expect(parseLeaderboardParams({ split: "", paper: "" })).toEqual({
      split: undefined,
      variant: "full",
      paper: undefined,
    });
    expect(() => parseLeaderboardParams({ paper: "<script>" })).toThrow(ZodError);
  });

  it("keeps the open breakdowns as agent ids, dropping what cannot be one", () => {
    expect(parseOpenAgents(new URLSearchParams(`open=${A},x,${B},${A}`))).toEqual([A, B]);
    expect(parseOpenAgents({})).toEqual([]);
  });

  it("writes back what it reads", () => {
    const href = leaderboardHref("/leaderboard", { split: "all", variant: "full", paper: "pinn", open: [A, B] });
    const params = new URL(href, "http://x").searchParams;
    expect(parseLeaderboardParams(params)).toEqual({ split: "all", variant: "full", paper: "pinn" });
    expect(parseOpenAgents(params)).toEqual([A, B]);
    expect(leaderboardHref("/leaderboard", { split: "lite", variant: "code-dev", paper: null, open: [] })).toBe(
      "/leaderboard?split=lite&variant=code-dev",
    );
  });
});
