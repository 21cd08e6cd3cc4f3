/**
 * Test-only: random rubric operations for property tests of the history (replay, deleted
 * subtrees). Each is valid for the rows given most of the time; some are refused on purpose (a
 * restore under a deleted parent, a move into the node's own subtree), as real clients' are.
 */
import { generateKeyBetween } from "fractional-indexing";
import type { NewNode, NodeFields, RubricOperation } from "./operations";
import { compareSiblings, type NodeRow } from "./tree-rows";
import { mulberry32 } from "@/lib/random";

export type DeletedRowLike = NodeRow & { deletedRevision: number | null };

/** A seeded generator (mulberry32) with the helpers property tests use: the same seed, the same sequence. */
export function seededRandom(seed: number) {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick, chance: (p: number) => next() < p };
}
export type Random = ReturnType<typeof seededRandom>;

const WORDS = ["train", "the", "model", "report", "loss", "élan", "accuracy", "clip", "warmup", "seed", "data", "plot"];

function text(r: Random, words = 2 + r.int(5)): string {
  return Array.from({ length: words }, () => r.pick(WORDS)).join(" ");
}

function positionAfterLast(live: readonly NodeRow[], parentKey: string): string {
  const kids = live.filter((n) => n.parentKey === parentKey).sort(compareSiblings);
  return generateKeyBetween(kids.at(-1)?.position ?? null, null);
}

function newNode(r: Random, parentKey: string, position: string): NewNode {
  const key = crypto.randomUUID();
  return {
    key,
    parentKey,
    position,
    nodeId: r.chance(0.8) ? key : `id-${r.int(5)}`,
    requirements: text(r),
    weight: r.pick([0, 1, 1, 2, 3, 0.5]),
    taskCategory: r.pick([null, "Code Development", "Result Analysis"]),
    finegrainedTaskCategory: r.pick([null, "Method Implementation"]),
  };
}

function subtreeKeys(live: readonly NodeRow[], key: string): Set<string> {
  const out = new Set([key]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const n of live)
      if (n.parentKey !== null && out.has(n.parentKey) && !out.has(n.key)) {
        out.add(n.key);
        grew = true;
      }
  }
  return out;
}

/**
 * One random simple operation for a rubric with these live rows (one root) and deleted rows, or
 * null when there is nothing to do of the kind drawn.
 */
export function randomOperation(
  r: Random,
  live: readonly NodeRow[],
  deleted: readonly DeletedRowLike[],
): RubricOperation | null {
  const nonRoot = live.filter((n) => n.parentKey !== null);
  const any = () => r.pick(live);
  switch (
    r.pick([
      "create",
      "create",
      "subtree",
      "update",
      "update",
      "merge",
      "move",
      "move",
      "delete",
      "delete",
      "restore",
      "restore",
    ] as const)
  ) {
    case "create": {
      const parent = any();
      return { kind: "create", nodes: [newNode(r, parent.key, positionAfterLast(live, parent.key))] };
    }
    case "subtree": {
      const parent = any();
      const top = newNode(r, parent.key, positionAfterLast(live, parent.key));
      const a = newNode(r, top.key, generateKeyBetween(null, null));
      const b = newNode(r, top.key, generateKeyBetween(a.position, null));
      const c = newNode(r, a.key, generateKeyBetween(null, null));
      return { kind: "create", nodes: [top, a, c, b] };
    }
    case "update": {
      const node = any();
      const fields: Partial<NodeFields> = {};
      if (r.chance(0.6)) fields.requirements = text(r);
      if (r.chance(0.4)) fields.weight = r.pick([0, 1, 2, 5, 0.25]);
      if (r.chance(0.3)) fields.taskCategory = r.pick([null, "Code Execution"]);
      if (r.chance(0.2)) fields.nodeId = `id-${r.int(1000)}`;
      if (Object.keys(fields).length === 0) fields.finegrainedTaskCategory = r.pick([null, "Experimental Setup"]);
      return { kind: "update", key: node.key, fields };
    }
    case "merge": {
      // A text edit from a stale base: the server merges three-way and logs the merged text.
      const node = any();
      const base = `${node.requirements} stale`;
      return {
        kind: "update",
        key: node.key,
        fields: { requirements: `${text(r, 1)} ${base}` },
        base: { requirements: base },
      };
    }
    case "move": {
      if (nonRoot.length === 0) return null;
      const moves = [];
      for (let i = 0, n = 1 + r.int(2); i < n; i++) {
        const node = r.pick(nonRoot);
        // Mostly legal; a move under its own subtree now and then (refused).
        const inside = subtreeKeys(live, node.key);
        const targets = r.chance(0.9) ? live.filter((t) => !inside.has(t.key)) : live;
        const parent = r.pick(targets);
        moves.push({
          key: node.key,
          parentKey: parent.key,
          position: positionAfterLast(live, parent.key) + (i ? "V" : ""),
        });
      }
      return { kind: "move", moves };
    }
    case "delete": {
      if (nonRoot.length === 0) return null;
      const keys = [r.pick(nonRoot).key];
      if (r.chance(0.3)) keys.push(r.pick(nonRoot).key);
      return { kind: "delete", keys: [...new Set(keys)] };
    }
    case "restore": {
      // Roots of what one delete took: a deleted node whose parent is live or went in another revision.
      const byKey = new Map(deleted.map((d) => [d.key, d]));
      const roots = deleted.filter((d) => {
        const parent = d.parentKey === null ? undefined : byKey.get(d.parentKey);
        return !parent || parent.deletedRevision !== d.deletedRevision;
      });
      if (roots.length === 0) return null;
      return { kind: "restore", keys: [r.pick(roots).key] };
    }
  }
}

/** Rows in a canonical text form (sorted by key, every field), for comparing two row sets. */
export function canonicalRows(rows: readonly NodeRow[]): string {
  return JSON.stringify(
    [...rows]
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((n) => [
        n.key,
        n.parentKey,
        n.position,
        n.nodeId,
        n.requirements,
        n.weight,
        n.taskCategory,
        n.finegrainedTaskCategory,
      ]),
  );
}
