import { describe, expect, it } from "vitest";
import { deletedSubtreeRoots } from "./deleted-subtrees";

const row = (key: string, parentKey: string | null, deletedRevision: number) => ({ key, parentKey, deletedRevision });

describe("deletedSubtreeRoots", () => {
  it("groups the rows of one delete under its root, newest delete first", () => {
    // r (live) ─ a (rev 5) ─ b (rev 5) ─ c (rev 3) ─ d (rev 3);  r ─ e (rev 4)
    const rows = [row("d", "c", 3), row("c", "b", 3), row("b", "a", 5), row("a", "r", 5), row("e", "r", 4)];
    const roots = deletedSubtreeRoots(rows);
    expect(roots.map((x) => [x.row.key, x.nodeCount, x.enclosedBy.map((e) => e.key)])).toEqual([
      ["a", 2, []],
      ["e", 1, []],
      ["c", 2, ["a"]],
    ]);
  });

  it("lists every enclosing delete, outermost first", () => {
    const rows = [row("a", "r", 9), row("b", "a", 7), row("c", "b", 7), row("d", "c", 2)];
    expect(
      deletedSubtreeRoots(rows)
        .find((x) => x.row.key === "d")!
        .enclosedBy.map((e) => e.key),
    ).toEqual(["a", "b"]);
  });

  it("is empty without deleted rows", () => {
    expect(deletedSubtreeRoots([])).toEqual([]);
  });
});
