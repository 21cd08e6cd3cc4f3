import { describe, expect, it } from "vitest";
import { loadOnce } from "./load-once";

describe("loadOnce", () => {
  it("loads once for every caller, at the same time or later", async () => {
    let calls = 0;
    const load = loadOnce(async () => ++calls);
    expect(await Promise.all([load(), load()])).toEqual([1, 1]);
    expect(await load()).toBe(1);
    expect(calls).toBe(1);
  });

  it("forgets a failed load: the next caller tries again", async () => {
    let calls = 0;
    const load = loadOnce(async () => {
      calls++;
      if (calls === 1) throw new Error("chunk refused");
      return "loaded";
    });
    await expect(load()).rejects.toThrow("chunk refused");
    expect(await load()).toBe("loaded");
    expect(await load()).toBe("loaded");
    expect(calls).toBe(2);
  });
});
