import { describe, expect, it } from "vitest";
import { requestIdOf, routePattern } from "./request-log";

describe("routePattern", () => {
  it("names each param's segment by the param, whatever its value", () => {
    expect(routePattern("/api/papers/demo-adaptive-clipping/gradings", { paperId: "demo-adaptive-clipping" })).toBe(
      "/api/papers/[paperId]/gradings",
    );
    expect(routePattern("/api/gradings/3f0c/assignments/9a1b", { gradingId: "3f0c", assignmentId: "9a1b" })).toBe(
      "/api/gradings/[gradingId]/assignments/[assignmentId]",
    );
    expect(routePattern("/api/papers/a%20b/rubric", { paperId: "a b" })).toBe("/api/papers/[paperId]/rubric");
    expect(routePattern("/api/auth/callback/credentials", { nextauth: ["callback", "credentials"] })).toBe(
      "/api/auth/[...nextauth]",
    );
    expect(routePattern("/api/leaderboard", {})).toBe("/api/leaderboard");
  });
});

describe("requestIdOf", () => {
  it("keeps a sane incoming id and replaces anything else with a new UUID", () => {
    expect(requestIdOf("edge-7f3a9c1e-42")).toBe("edge-7f3a9c1e-42");
    for (const bad of [null, "", "short", "has space in it", "<script>alert(1)</script>", "x".repeat(129)]) {
      expect(requestIdOf(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
