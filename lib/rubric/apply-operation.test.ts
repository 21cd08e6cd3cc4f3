import fc from "fast-check";
import { generateKeyBetween } from "fractional-indexing";
import { describe, expect, it } from "vitest";
import { applyOperation } from "./apply-operation";
import { OperationError, type NewNode, type RubricOperation } from "./operations";
import { specRows } from "./rows-fixtures.testutil";
import { buildTreeIndex } from "./tree-index";
import { rowsToTree, type NodeRow } from "./tree-rows";
import { propertyParams } from "@/test/property";

//      r
//    a   b
//  a1 a2  b1
const base = () =>
  specRows({
    key: "r",
    kids: [
      { key: "a", kids: [{ key: "a1" }, { key: "a2" }] },
      { key: "b", kids: [{ key: "b1" }] },
    ],
  });

const freeze = (rows: NodeRow[]): readonly NodeRow[] => Object.freeze(rows.map((r) => Object.freeze({ ...r })));

const newNode = (key: string, parentKey: string, position = "a5"): NewNode => ({
  key,
  parentKey,
  position,
  nodeId: `id-${key}`,
  requirements: `New ${key}`,
  weight: 1,
  taskCategory: "Code Development",
  finegrainedTaskCategory: null,
});

const expectError = (fn: () => unknown, code: string) => {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(OperationError);
  expect((error as OperationError).code).toBe(code);
};

const keysOf = (rows: readonly NodeRow[]) => buildTreeIndex(rows).preorder.map((r) => r.key);

describe("applyOperation: the import's limits", () => {
  // A chain r → c1 → … of `depth` levels, as rows.
  const chainRows = (depth: number): NodeRow[] => {
    const rows: NodeRow[] = [{ ...newNode("c0", "x"), parentKey: null }];
    for (let i = 1; i < depth; i++) rows.push(newNode(`c${i}`, `c${i - 1}`));
    return rows;
  };
  const message = (fn: () => unknown) => {
    expectError(fn, "limit");
    try {
      fn();
    } catch (e) {
      return (e as OperationError).message;
    }
  };

  it("refuses a create or a move that would make the rubric deeper than 64 levels", () => {
    const rows = freeze(chainRows(64));
    expect(message(() => applyOperation(rows, { kind: "create", nodes: [newNode("n", "c63")] }))).toBe(
      "The rubric would be 65 levels deep; the limit is 64 levels",
    );
    expect(
      message(() => applyOperation(rows, { kind: "create", nodes: [newNode("n", "c62"), newNode("n1", "n")] })),
    ).toContain("65 levels");
    expect(applyOperation(rows, { kind: "create", nodes: [newNode("n", "c62")] })).toHaveLength(65);
    // A two-level branch under level 2, moved under level 63.
    const branched = freeze([...rows, newNode("b", "c1"), newNode("b1", "b")]);
    expect(
      message(() =>
        applyOperation(branched, { kind: "move", moves: [{ key: "b", parentKey: "c62", position: "a1" }] }),
      ),
    ).toContain("65 levels");
    expect(
      applyOperation(branched, { kind: "move", moves: [{ key: "b", parentKey: "c61", position: "a1" }] }),
    ).toHaveLength(66);
  });

  it("refuses a create that would take the rubric past 50,000 nodes", () => {
    const rows = freeze([
      { ...newNode("r", "x"), parentKey: null },
      ...Array.from({ length: 49_999 }, (_, i) => newNode(`l${i}`, "r")),
    ]);
    expect(message(() => applyOperation(rows, { kind: "create", nodes: [newNode("n", "r")] }))).toBe(
      "The rubric would have 50001 nodes; the limit is 50000",
    );
  });
});

describe("applyOperation: create", () => {
  it("appends one node under an existing parent", () => {
    const rows = freeze(base());
    const out = applyOperation(rows, {
      kind: "create",
      nodes: [newNode("n", "a", generateKeyBetween(rows[3].position, null))],
    });
    expect(out).toHaveLength(rows.length + 1);
    expect(keysOf(out)).toEqual(["r", "a", "a1", "a2", "n", "b", "b1"]);
    expect(out.at(-1)).toEqual({ ...newNode("n", "a", out.at(-1)!.position) });
    expect(out.slice(0, rows.length).every((r, i) => r === rows[i])).toBe(true);
  });

  it("creates a subtree listed in pre-order", () => {
    const out = applyOperation(freeze(base()), {
      kind: "create",
      nodes: [newNode("x", "b"), newNode("x1", "x"), newNode("x11", "x1"), newNode("x2", "x", "a6")],
    });
    expect(keysOf(out)).toEqual(["r", "a", "a1", "a2", "b", "b1", "x", "x1", "x11", "x2"]);
  });

  it("a create without a parent makes the root of an empty rubric, and only there", () => {
    const root = { ...newNode("r", "x"), parentKey: null };
    const out = applyOperation([], { kind: "create", nodes: [root, newNode("c", "r")] });
    expect(keysOf(out)).toEqual(["r", "c"]);
    expectError(() => applyOperation(freeze(base()), { kind: "create", nodes: [{ ...root, key: "r2" }] }), "root");
  });

  it("refuses unknown parents, existing keys and lists that are not one subtree", () => {
    const rows = freeze(base());
    expectError(() => applyOperation(rows, { kind: "create", nodes: [newNode("n", "nope")] }), "node_not_found");
    expectError(() => applyOperation(rows, { kind: "create", nodes: [newNode("a1", "a")] }), "duplicate_key");
    expectError(
      () => applyOperation(rows, { kind: "create", nodes: [newNode("n", "a"), newNode("n", "n")] }),
      "duplicate_key",
    );
    // A later node must hang under an earlier node of the list (never an existing node, never null).
    expectError(
      () => applyOperation(rows, { kind: "create", nodes: [newNode("x", "b"), newNode("y", "a")] }),
      "invalid",
    );
    expectError(
      () => applyOperation(rows, { kind: "create", nodes: [newNode("x", "b"), newNode("y", "z"), newNode("z", "x")] }),
      "invalid",
    );
    expectError(
      () =>
        applyOperation(rows, { kind: "create", nodes: [newNode("x", "b"), { ...newNode("y", "x"), parentKey: null }] }),
      "invalid",
    );
    // The server's order of checks: a broken chain is "invalid" even when the parent is unknown too.
    expectError(
      () => applyOperation(rows, { kind: "create", nodes: [newNode("x", "nope"), newNode("y", "a")] }),
      "invalid",
    );
  });

  it("accepts any list where each node comes after its parent, as the server does", () => {
    const out = applyOperation(freeze(base()), {
      kind: "create",
      nodes: [newNode("x", "b"), newNode("x1", "x"), newNode("x2", "x", "a6"), newNode("x11", "x1")],
    });
    expect(keysOf(out)).toEqual(["r", "a", "a1", "a2", "b", "b1", "x", "x1", "x11", "x2"]);
  });
});

describe("applyOperation: update", () => {
  it("changes the given fields only, in a copy", () => {
    const rows = freeze(base());
    const out = applyOperation(rows, { kind: "update", key: "a1", fields: { requirements: "Changed", weight: 3 } });
    const row = out.find((r) => r.key === "a1")!;
    expect(row).toEqual({ ...rows[2], requirements: "Changed", weight: 3 });
    expect(rows[2].requirements).toBe("Requirement a1");
    expect(out.filter((r) => r !== row).every((r) => rows.includes(r))).toBe(true);
    const nulls = applyOperation(rows, {
      kind: "update",
      key: "a1",
      fields: { taskCategory: null, finegrainedTaskCategory: null },
    });
    expect(nulls.find((r) => r.key === "a1")).toMatchObject({ taskCategory: null, finegrainedTaskCategory: null });
  });

  it("refuses an unknown key", () => {
    expectError(
      () => applyOperation(freeze(base()), { kind: "update", key: "nope", fields: { weight: 1 } }),
      "node_not_found",
    );
  });
});

describe("applyOperation: move", () => {
  it("moves nodes, several at once", () => {
    const rows = freeze(base());
    const out = applyOperation(rows, {
      kind: "move",
      moves: [
        { key: "a2", parentKey: "b", position: generateKeyBetween(null, rows[5].position) },
        { key: "b1", parentKey: "a", position: "Zz" },
      ],
    });
    expect(keysOf(out)).toEqual(["r", "a", "b1", "a1", "b", "a2"]);
    expect(rowsToTree(out)!.sub_tasks.map((n) => n.sub_tasks.map((c) => c.requirements))).toEqual([
      ["Requirement b1", "Requirement a1"],
      ["Requirement a2"],
    ]);
  });

  it("allows moves that only look like cycles before the other moves apply", () => {
    // a under b, and b1 (b's child) under r: no cycle.
    const out = applyOperation(freeze(base()), {
      kind: "move",
      moves: [
        { key: "a", parentKey: "b1", position: "a0" },
        { key: "b1", parentKey: "r", position: "a9" },
      ],
    });
    expect(keysOf(out)).toEqual(["r", "b", "b1", "a", "a1", "a2"]);
  });

  it("applies the moves of one operation one after the other; a node moved twice ends at its last place", () => {
    const out = applyOperation(freeze(base()), {
      kind: "move",
      moves: [
        { key: "a1", parentKey: "b", position: "a0" },
        { key: "a1", parentKey: "r", position: "a9" },
      ],
    });
    expect(keysOf(out)).toEqual(["r", "a", "a2", "b", "b1", "a1"]);
    // Each move alone is fine; after the first (a under b1), b is an ancestor of a2, so the second
    // makes a cycle.
    expectError(
      () =>
        applyOperation(freeze(base()), {
          kind: "move",
          moves: [
            { key: "a", parentKey: "b1", position: "a0" },
            { key: "b", parentKey: "a2", position: "a0" },
          ],
        }),
      "cycle",
    );
  });

  it("refuses cycles, the root and unknown nodes", () => {
    const rows = freeze(base());
    const move = (moves: { key: string; parentKey: string; position: string }[]): RubricOperation => ({
      kind: "move",
      moves,
    });
    expectError(() => applyOperation(rows, move([{ key: "a", parentKey: "a", position: "a0" }])), "cycle");
    expectError(() => applyOperation(rows, move([{ key: "a", parentKey: "a2", position: "a0" }])), "cycle");
    expectError(() => applyOperation(rows, move([{ key: "r", parentKey: "a", position: "a0" }])), "root");
    expectError(() => applyOperation(rows, move([{ key: "nope", parentKey: "a", position: "a0" }])), "node_not_found");
    expectError(() => applyOperation(rows, move([{ key: "a1", parentKey: "nope", position: "a0" }])), "node_not_found");
  });
});

describe("applyOperation: delete, restore, batch", () => {
  it("deletes whole subtrees", () => {
    const out = applyOperation(freeze(base()), { kind: "delete", keys: ["a", "a1", "b1"] });
    expect(out.map((r) => r.key)).toEqual(["r", "b"]);
  });

  it("refuses the root and unknown keys", () => {
    expectError(() => applyOperation(freeze(base()), { kind: "delete", keys: ["r"] }), "root");
    expectError(() => applyOperation(freeze(base()), { kind: "delete", keys: ["a", "nope"] }), "node_not_found");
  });

  it("leaves restore and batch to the server", () => {
    expectError(() => applyOperation(freeze(base()), { kind: "restore", keys: ["a"] }), "invalid");
    expectError(
      () => applyOperation(freeze(base()), { kind: "batch", ops: [{ kind: "delete", keys: ["a"] }] }),
      "invalid",
    );
    expect(() => applyOperation(freeze(base()), { kind: "restore", keys: ["a"] })).toThrow(/server only/);
  });
});

// ---------------------------------------------------------------------------------------------
// property test

/** Checks the invariants of a live row set; returns a reason or null. */
function brokenInvariant(rows: readonly NodeRow[]): string | null {
  const keys = new Set<string>();
  for (const r of rows) {
    if (keys.has(r.key)) return `duplicate key ${r.key}`;
    keys.add(r.key);
  }
  const roots = rows.filter((r) => r.parentKey === null);
  if (roots.length !== 1) return `${roots.length} roots`;
  for (const r of rows) if (r.parentKey !== null && !keys.has(r.parentKey)) return `orphan ${r.key}`;
  // No cycle: every row reaches the root.
  const parent = new Map(rows.map((r) => [r.key, r.parentKey]));
  for (const r of rows) {
    let k: string | null = r.key;
    for (let steps = 0; k !== null; steps++) {
      if (steps > rows.length) return `cycle through ${r.key}`;
      k = parent.get(k) ?? null;
    }
  }
  if (buildTreeIndex(rows).preorder.length !== rows.length) return "unreachable rows";
  return null;
}

/** A random tree of `size` nodes: node i hangs under a random earlier node. */
const treeArb = fc.integer({ min: 1, max: 25 }).chain((size) =>
  fc.array(fc.nat(), { minLength: size - 1, maxLength: size - 1 }).map((parents) => {
    const rows: NodeRow[] = [];
    for (let i = 0; i < size; i++) {
      rows.push({
        key: `k${i}`,
        parentKey: i === 0 ? null : `k${parents[i - 1] % i}`,
        position: generateKeyBetween(null, null),
        nodeId: `n${i}`,
        requirements: `R${i}`,
        weight: 1,
        taskCategory: null,
        finegrainedTaskCategory: null,
      });
    }
    return rows;
  }),
);

/** Seeds for operations, turned into operations against the rows of the moment. */
const opSeedArb = fc.record({
  kind: fc.constantFrom("create", "update", "move", "delete", "restore", "batch"),
  picks: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
  count: fc.integer({ min: 1, max: 3 }),
});
type OpSeed = { kind: string; picks: number[]; count: number };

let fresh = 0;
function makeOp(rows: readonly NodeRow[], seed: OpSeed): RubricOperation {
  // Keys from the rows, plus an unknown one and the root, so that invalid ops come up too.
  const pool = [...rows.map((r) => r.key), "missing"];
  const pick = (i: number) => pool[seed.picks[i % seed.picks.length] % pool.length];
  switch (seed.kind) {
    case "create": {
      const nodes: NewNode[] = [];
      for (let i = 0; i < seed.count; i++) {
        // Usually a chain under an earlier new node; sometimes an existing key or a broken chain.
        const key = seed.picks[i] % 7 === 0 ? pick(i) : `new${fresh++}`;
        const parentKey = i === 0 || seed.picks[i] % 5 === 0 ? pick(i + 1) : nodes[i - 1].key;
        nodes.push(newNode(key, parentKey));
      }
      return { kind: "create", nodes };
    }
    case "update":
      return { kind: "update", key: pick(0), fields: { weight: seed.picks[1] % 4, requirements: `U${seed.picks[2]}` } };
    case "move":
      return {
        kind: "move",
        moves: Array.from({ length: seed.count }, (_, i) => ({
          key: pick(2 * i),
          parentKey: pick(2 * i + 1),
          position: "a1",
        })),
      };
    case "delete":
      return { kind: "delete", keys: Array.from({ length: seed.count }, (_, i) => pick(i)) };
    case "restore":
      return { kind: "restore", keys: [pick(0)] };
    default:
      return { kind: "batch", ops: [{ kind: "delete", keys: [pick(0)] }] };
  }
}

describe("applyOperation: property", () => {
  it("random valid and invalid operations keep one root, no cycle, no orphan, unique keys", () => {
    let applied = 0;
    let refused = 0;
    const codes = new Set<string>();
    fc.assert(
      fc.property(treeArb, fc.array(opSeedArb, { minLength: 1, maxLength: 30 }), (start, seeds) => {
        let rows: readonly NodeRow[] = freeze(start);
        expect(brokenInvariant(rows)).toBeNull();
        for (const seed of seeds) {
          const op = makeOp(rows, seed);
          const snapshot = JSON.stringify(rows);
          try {
            const next = applyOperation(rows, op); // frozen input: a mutation would throw
            rows = freeze(next);
            applied++;
          } catch (e) {
            if (!(e instanceof OperationError)) throw e;
            codes.add(e.code);
            refused++;
            expect(JSON.stringify(rows)).toBe(snapshot);
          }
          const broken = brokenInvariant(rows);
          if (broken) throw new Error(`${broken} after ${JSON.stringify(op)}`);
        }
      }),
      propertyParams({ numRuns: 300, seed: 20_261_122 }),
    );
    // Both paths were exercised, and every refusal code came up.
    expect(applied).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
    expect([...codes].sort()).toEqual(["cycle", "duplicate_key", "invalid", "node_not_found", "root"]);
  });

  it("a refused operation leaves the rows as they were; an applied one touches only what it names", () => {
    fc.assert(
      fc.property(treeArb, opSeedArb, (start, seed) => {
        const rows = freeze(start);
        const before = JSON.stringify(rows);
        const op = makeOp(rows, seed);
        let out: NodeRow[] | null = null;
        try {
          out = applyOperation(rows, op);
        } catch (e) {
          if (!(e instanceof OperationError)) throw e;
        }
        expect(JSON.stringify(rows)).toBe(before);
        if (!out) return;
        if (op.kind === "update") {
          expect(out.filter((r, i) => r !== rows[i]).map((r) => r.key)).toEqual([op.key]);
        }
        if (op.kind === "move") {
          const moved = new Set(op.moves.map((m) => m.key));
          expect(out.filter((r, i) => r !== rows[i]).every((r) => moved.has(r.key))).toBe(true);
        }
        if (op.kind === "delete") {
          const index = buildTreeIndex(rows);
          const gone = new Set(op.keys.flatMap((k) => index.subtreeKeys(k)));
          expect(out.map((r) => r.key)).toEqual(rows.map((r) => r.key).filter((k) => !gone.has(k)));
        }
      }),
      propertyParams({ numRuns: 500, seed: 7 }),
    );
  });
});
