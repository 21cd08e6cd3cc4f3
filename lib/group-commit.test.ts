import { describe, expect, it, vi } from "vitest";
import { groupCommit } from "./group-commit";

const tick = () => new Promise<void>((r) => setTimeout(r, 5));

describe("groupCommit", () => {
  it("writes what arrives during a write together in the next one, in order, never two writes at once", async () => {
    const writes: number[][] = [];
    let inFlight = 0;
    let overlapped = false;
    const batch = groupCommit<number>(async (items) => {
      inFlight++;
      if (inFlight > 1) overlapped = true;
      writes.push(items);
      await tick();
      inFlight--;
    });
    const first = batch.add(1); // written alone, at once
    const rest = [2, 3, 4, 5].map((n) => batch.add(n)); // arrive while the first is written
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[1], [2, 3, 4, 5]]);
    expect(overlapped).toBe(false);
    await batch.add(6); // idle again: a write of its own
    expect(writes.at(-1)).toEqual([6]);
  });

  it("rejects the items of a failed write with its error, and goes on with the next", async () => {
    let fail = true;
    const batch = groupCommit<string>(async () => {
      await tick();
      if (fail) {
        fail = false;
        throw new Error("lost");
      }
    });
    const a = batch.add("a").catch((e: Error) => e.message);
    const b = batch.add("b");
    expect(await a).toBe("lost");
    await expect(b).resolves.toBeUndefined();
  });
});

describe("groupCommit with a linger", () => {
  it("writes a batch no sooner than lingerMs after its first item, with every item that arrived meanwhile", async () => {
    vi.useFakeTimers();
    try {
      const writes: number[][] = [];
      const batch = groupCommit<number>(
        async (items) => {
          writes.push(items);
        },
        { lingerMs: 100 },
      );
      const first = [batch.add(1), batch.add(2)];
      await vi.advanceTimersByTimeAsync(60);
      expect(writes).toEqual([]);
      first.push(batch.add(3));
      await vi.advanceTimersByTimeAsync(40);
      await Promise.all(first);
      expect(writes).toEqual([[1, 2, 3]]);
      // The next batch lingers from its own first item.
      const later = batch.add(4);
      await vi.advanceTimersByTimeAsync(99);
      expect(writes).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await later;
      expect(writes).toEqual([[1, 2, 3], [4]]);
    } finally {
      vi.useRealTimers();
    }
  });
});
