/**
 * Which leaves of a grading a human reviews: `size` leaves drawn at random, seeded by the grading's
 * id (the same grading always gives the same sample), stratified by task category and weighted by
 * effective share.
 *
 * - Stratified: each category gets its proportional part of the sample by leaf count (largest
 *   remainder, ties to the larger category, then by name), so agreement is measured on every
 *   kind of leaf in the proportion the rubric has them.
 * - Weighted: within a category, leaves are drawn without replacement with probability
 *   proportional to their share of the root score (Efraimidis–Spirakis: the largest u^(1/w)), so
 *   the leaves that move the score most are reviewed most often. A leaf that weighs nothing (share
 *   0) is drawn only when its category has no other leaf left.
 * - A sample as large as the grading takes every leaf.
 * Pure; no Node built-ins.
 */
import { mulberry32 } from "@/lib/random";
import { NO_CATEGORY, effectiveShares } from "@/lib/rubric/shares";
import { buildTreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";

export interface SampleableLeaf {
  key: string;
  /** `task_category`; null counts as a category of its own. */
  category: string | null;
  /** The leaf's share of the root score (`lib/rubric/shares.ts`). */
  share: number;
}

/** A 32-bit seed from a string (FNV-1a): the grading's id seeds its sample. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The leaves of a pinned rubric's rows (pre-order) with their category and share. */
export function sampleableLeaves(rows: readonly NodeRow[]): SampleableLeaf[] {
  const index = buildTreeIndex(rows);
  const shares = effectiveShares(index);
  return index.preorder
    .filter((r) => index.isLeaf(r.key))
    .map((r) => ({ key: r.key, category: r.taskCategory, share: shares.get(r.key) ?? 0 }));
}

/** Per category, how many of `size` it gets: proportional to its leaves, largest remainder. */
export function stratumQuotas(counts: ReadonlyMap<string, number>, size: number): Map<string, number> {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const quotas = new Map<string, number>();
  if (total === 0) return quotas;
  const take = Math.min(size, total);
  const parts = [...counts].map(([name, count]) => {
    const exact = (take * count) / total;
    return { name, count, floor: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let left = take - parts.reduce((a, p) => a + p.floor, 0);
  for (const p of parts) quotas.set(p.name, p.floor);
  parts.sort(
    (a, b) => b.remainder - a.remainder || b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  for (const p of parts) {
    if (left === 0) break;
    if (quotas.get(p.name)! < p.count) {
      quotas.set(p.name, quotas.get(p.name)! + 1);
      left--;
    }
  }
  return quotas;
}

/** The keys of the sampled leaves, in the leaves' order. */
export function sampleLeaves(leaves: readonly SampleableLeaf[], size: number, seed: string): string[] {
  if (size >= leaves.length) return leaves.map((l) => l.key);
  if (size <= 0) return [];
  const strata = new Map<string, { leaf: SampleableLeaf; index: number }[]>();
  leaves.forEach((leaf, index) => {
    const name = leaf.category ?? NO_CATEGORY;
    const list = strata.get(name) ?? [];
    list.push({ leaf, index });
    strata.set(name, list);
  });
  const quotas = stratumQuotas(new Map([...strata].map(([name, list]) => [name, list.length])), size);
  const random = mulberry32(seedOf(seed));
  const chosen: number[] = [];
  // Categories in name order, so the draws do not depend on the order leaves come in.
  for (const name of [...strata.keys()].sort()) {
    const keyed = strata.get(name)!.map(({ leaf, index }) => {
      const u = random();
      // log(u^(1/w)) = log(u)/w: the same order, without underflow for small shares.
      const key = leaf.share > 0 ? Math.log(u === 0 ? Number.MIN_VALUE : u) / leaf.share : -Infinity;
      return { index, key };
    });
    keyed.sort((a, b) => b.key - a.key || a.index - b.index);
    for (const k of keyed.slice(0, quotas.get(name) ?? 0)) chosen.push(k.index);
  }
  return chosen.sort((a, b) => a - b).map((i) => leaves[i].key);
}
