import { describe, expect, it } from "vitest";
import { summarizeRevision } from "./revision-summary";

describe("summarizeRevision", () => {
  it("says what each kind of change did, naming the node", () => {
    expect(summarizeRevision({ kind: "import", importedNodes: 33 })).toBe("Imported the rubric (33 nodes)");
    expect(summarizeRevision({ kind: "create", size: 1, nodeText: "Train it" })).toBe("Added “Train it”");
    expect(summarizeRevision({ kind: "create", size: 4, nodeText: "Train it" })).toBe(
      "Added “Train it” with 3 nodes below",
    );
    expect(summarizeRevision({ kind: "update", fields: ["weight", "taskCategory"], nodeText: "A" })).toBe(
      "Changed weight, category of “A”",
    );
    expect(summarizeRevision({ kind: "update", fields: ["requirements"], nodeText: null })).toBe(
      "Changed requirements",
    );
    expect(summarizeRevision({ kind: "move", size: 3 })).toBe("Moved 3 nodes");
    expect(summarizeRevision({ kind: "delete", size: 1, nodeText: "x".repeat(80) })).toBe(
      `Deleted “${"x".repeat(59)}…”`,
    );
    expect(summarizeRevision({ kind: "restore", size: 2 })).toBe("Restored 2 subtrees");
    expect(summarizeRevision({ kind: "batch", parts: { update: 3, move: 1 } })).toBe(
      "Several changes at once: 3 edits, 1 move",
    );
  });
});
