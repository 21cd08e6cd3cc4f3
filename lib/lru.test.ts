import { describe, expect, it } from "vitest";
import { LruMap } from "./lru";

describe("LruMap", () => {
  it("keeps at most its capacity, dropping the least recently used (a get counts as a use)", () => {
    const lru = new LruMap<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3);
    expect(lru.size).toBe(2);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    expect(lru.get("c")).toBe(3);
  });

  it("setting a kept key replaces its value and makes it the most recent", () => {
    const lru = new LruMap<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("a", 10);
    lru.set("c", 3);
    expect(lru.get("a")).toBe(10);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.size).toBe(2);
  });
});
