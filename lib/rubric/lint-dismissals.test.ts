import { describe, expect, it } from "vitest";
import { describeOperationFor } from "./describe-operation";
import { lintRubric } from "./editor-lint";
import { DISMISSABLE_CODES, groupByCode, splitDismissed } from "./lint-dismissals";
import { MemoryRows } from "./memory-rows";
import { runOperationRules } from "./operation-rules";
import { OperationError, operationSchema, type RubricOperation } from "./operations";
import { replayOperation } from "./replay";
import { summarizeRevision } from "./revision-summary";
import { specRows, uuidFor, type Spec } from "./rows-fixtures.testutil";
import { effectiveShares } from "./shares";
import { buildTreeIndex } from "./tree-index";

// Two light leaves (tiny_share), one without a category (an error), one empty (a warning).
const spec: Spec = {
  key: "r",
  kids: [
    { key: "a", w: 20 },
    { key: "t1", w: 1 },
    { key: "t2", w: 1, cat: null },
    { key: "e", w: 20, req: "" },
    { key: "f", w: 20 },
  ],
};
const findings = () => {
  const index = buildTreeIndex(specRows(spec));
  return lintRubric(index, effectiveShares(index));
};
const keys = (list: { key: string; code: string }[]) => list.map((f) => `${f.key}:${f.code}`);

describe("splitDismissed", () => {
  it("a rule dismissal hides every warning of its code, a node dismissal that node's only", () => {
    const all = findings();
    expect(keys(all)).toEqual(["t1:tiny_share", "t2:leaf_without_category", "t2:tiny_share", "e:empty_requirements"]);

    const rule = splitDismissed(all, [{ code: "tiny_share", key: null }]);
    expect(keys(rule.active)).toEqual(["t2:leaf_without_category", "e:empty_requirements"]);
    expect(keys(rule.dismissed)).toEqual(["t1:tiny_share", "t2:tiny_share"]);

    const node = splitDismissed(all, [
      { code: "tiny_share", key: "t2" },
      { code: "empty_requirements", key: "t1" },
    ]);
    expect(keys(node.active)).toEqual(["t1:tiny_share", "t2:leaf_without_category", "e:empty_requirements"]);
    expect(keys(node.dismissed)).toEqual(["t2:tiny_share"]);
  });

  it("never hides an error, whatever is stored", () => {
    const all = findings();
    const { active, dismissed } = splitDismissed(all, [{ code: "leaf_without_category" as never, key: null }]);
    expect(active).toEqual(all);
    expect(dismissed).toEqual([]);
  });

  it("groups by code, errors first, then by count", () => {
    expect(groupByCode(findings()).map((g) => [g.code, g.items.length])).toEqual([
      ["leaf_without_category", 1],
      ["tiny_share", 2],
      ["empty_requirements", 1],
    ]);
  });
});

describe("dismiss and undismiss operations", () => {
  const rows = () => new MemoryRows(specRows(spec));
  const run = (memory: MemoryRows, op: RubricOperation, revision = 1) =>
    runOperationRules(memory, op, revision).inverse;

  it("are checked by the schema: warning codes only, and a reason", () => {
    const key = uuidFor("t1");
    expect(operationSchema.safeParse({ kind: "dismiss", code: "tiny_share", key, reason: " Intended " }).data).toEqual({
      kind: "dismiss",
      code: "tiny_share",
      key,
      reason: "Intended",
    });
    expect(operationSchema.safeParse({ kind: "dismiss", code: "tiny_share", key: null, reason: "x" }).success).toBe(
      true,
    );
    expect(operationSchema.safeParse({ kind: "dismiss", code: "tiny_share", key, reason: "   " }).success).toBe(false);
    expect(
      operationSchema.safeParse({ kind: "dismiss", code: "leaf_without_category", key, reason: "x" }).success,
    ).toBe(false);
    expect(operationSchema.safeParse({ kind: "undismiss", code: "no_such_code", key: null }).success).toBe(false);
    expect(DISMISSABLE_CODES).not.toContain("negative_weight");
    expect(DISMISSABLE_CODES).toContain("tiny_share");
  });

  it("inverses put back what there was", () => {
    const memory = rows();
    expect(run(memory, { kind: "dismiss", code: "tiny_share", key: "t1", reason: "first" })).toEqual({
      kind: "undismiss",
      code: "tiny_share",
      key: "t1",
    });
    expect(memory.dismissal("tiny_share", "t1")).toBe("first");
    expect(memory.dismissal("tiny_share", null)).toBeNull();
    // A new reason replaces the old one; its undo brings the old one back.
    expect(run(memory, { kind: "dismiss", code: "tiny_share", key: "t1", reason: "second" })).toEqual({
      kind: "dismiss",
      code: "tiny_share",
      key: "t1",
      reason: "first",
    });
    expect(run(memory, { kind: "undismiss", code: "tiny_share", key: "t1" })).toEqual({
      kind: "dismiss",
      code: "tiny_share",
      key: "t1",
      reason: "second",
    });
    expect(memory.dismissal("tiny_share", "t1")).toBeNull();
    // Taking back what is not dismissed changes nothing.
    expect(run(memory, { kind: "undismiss", code: "tiny_share", key: null })).toEqual({
      kind: "undismiss",
      code: "tiny_share",
      key: null,
    });
  });

  it("a node's finding is dismissed on a live node only; taking it back needs none", () => {
    const memory = rows();
    run(memory, { kind: "dismiss", code: "tiny_share", key: "t1", reason: "ok" });
    run(memory, { kind: "delete", keys: ["t1"] }, 2);
    const refused = (op: RubricOperation) => {
      try {
        run(memory, op, 3);
      } catch (err) {
        return err instanceof OperationError ? err.code : String(err);
      }
      return null;
    };
    expect(refused({ kind: "dismiss", code: "tiny_share", key: "t1", reason: "again" })).toBe("node_deleted");
    expect(refused({ kind: "dismiss", code: "tiny_share", key: "nope", reason: "x" })).toBe("node_not_found");
    expect(refused({ kind: "undismiss", code: "tiny_share", key: "t1" })).toBeNull();
  });

  it("change no row, and replay over them", () => {
    const state = { live: specRows(spec), deleted: new Map() };
    const before = state.live;
    replayOperation(state, { kind: "dismiss", code: "empty_requirements", key: "e", reason: "later" }, 1);
    replayOperation(state, { kind: "undismiss", code: "empty_requirements", key: "e" }, 2);
    expect(state.live).toEqual(before);
  });

  it("read in the node's history and the revision log", () => {
    const dismiss: RubricOperation = {
      kind: "dismiss",
      code: "tiny_share",
      key: "t1",
      reason: "The paper weighs it lightly",
    };
    expect(describeOperationFor(dismiss, "t1")).toEqual([
      "dismissed its “Weight far below its siblings” warning: The paper weighs it lightly",
    ]);
    expect(describeOperationFor({ kind: "undismiss", code: "tiny_share", key: "t1" }, "t1")).toEqual([
      "brought back its “Weight far below its siblings” warning",
    ]);
    expect(summarizeRevision({ kind: "dismiss", code: "tiny_share", nodeText: "Train the model" })).toBe(
      "Dismissed the “Weight far below its siblings” warning on “Train the model”",
    );
    expect(summarizeRevision({ kind: "dismiss", code: "non_uuid_id", nodeText: null })).toBe(
      "Dismissed every “Non-UUID id” warning",
    );
    expect(summarizeRevision({ kind: "undismiss", code: "non_uuid_id", nodeText: null })).toBe(
      "Brought back every “Non-UUID id” warning",
    );
  });
});
