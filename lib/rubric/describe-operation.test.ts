import { describe, expect, it } from "vitest";
import { describeOperationFor } from "./describe-operation";

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";
const node = (key: string, parentKey: string) => ({
  key,
  parentKey,
  position: "a0",
  nodeId: key,
  requirements: "",
  weight: 1,
  taskCategory: null,
  finegrainedTaskCategory: null,
});

describe("describeOperationFor", () => {
  it("says what each kind of operation did to the node", () => {
    expect(describeOperationFor({ kind: "update", key: A, fields: { weight: 3, taskCategory: null } }, A)).toEqual([
      "set weight to 3, set task category to none",
    ]);
    expect(describeOperationFor({ kind: "update", key: A, fields: { requirements: "x" } }, A)).toEqual([
      "edited the requirements",
    ]);
    expect(describeOperationFor({ kind: "create", nodes: [node(A, B)] }, A)).toEqual(["created it"]);
    expect(describeOperationFor({ kind: "create", nodes: [node(B, A)] }, A)).toEqual(["added a child"]);
    expect(describeOperationFor({ kind: "move", moves: [{ key: A, parentKey: B, position: "a1" }] }, A)).toEqual([
      "moved it",
    ]);
    expect(describeOperationFor({ kind: "move", moves: [{ key: B, parentKey: A, position: "a1" }] }, A)).toEqual([
      "moved a node under it",
    ]);
    expect(
      describeOperationFor(
        {
          kind: "batch",
          ops: [
            { kind: "delete", keys: [A] },
            { kind: "restore", keys: [A] },
          ],
        },
        A,
      ),
    ).toEqual(["deleted it", "restored it"]);
  });
});
