"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { NodeApi } from "react-arborist";
import {
  filterKeys,
  filtersActive,
  NO_FILTERS,
  searchMatches,
  type Derived,
  type Filters,
  type TreeItem,
} from "./derive";

/**
 * The tree's filters and full-text search: which nodes the tree keeps, the matches of the search
 * and the current one, which the tree follows (through `reveal`).
 */
export function useTreeSearch(derived: Derived, reveal: (key: string) => void) {
  const [search, setSearch] = useState("");
  const [matchAt, setMatchAt] = useState(0);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);

  const filterActive = filtersActive(filters);
  const filterSet = useMemo(
    () => (filterActive ? filterKeys(derived, filters) : null),
    [derived, filters, filterActive],
  );
  const filterToken = filterActive ? `filter:${filters.task}|${filters.fine}|${filters.lint}` : "";
  const filterMatch = useCallback((node: NodeApi<TreeItem>) => filterSet?.has(node.id) ?? true, [filterSet]);

  const needle = search.trim().toLowerCase();
  const matches = useMemo(() => searchMatches(derived.index, search, filterSet), [derived.index, search, filterSet]);
  const current = matches.length ? matches[Math.min(matchAt, matches.length - 1)] : null;

  useEffect(() => {
    setMatchAt(0);
  }, [needle, filterSet]);
  // Follow the current match when it changes (not on every edit of the rubric).
  const lastRevealed = useRef<string | null>(null);
  useEffect(() => {
    if (current && current !== lastRevealed.current) reveal(current);
    lastRevealed.current = current;
  }, [current, reveal]);
  const step = (delta: number) => {
    if (matches.length === 0) return;
    const at = (Math.min(matchAt, matches.length - 1) + delta + matches.length) % matches.length;
    setMatchAt(at);
    if (matches[at] === current) reveal(current);
  };

  // Latest filters, for `unhide` (a stable callback).
  const latest = useRef({ derived, filters });
  latest.current = { derived, filters };
  /** Drops the filters when they hide the node (and its whole subtree). */
  const unhide = useCallback((key: string) => {
    const { derived: d, filters: f } = latest.current;
    if (!filtersActive(f)) return;
    const keep = filterKeys(d, f);
    if (!d.index.subtreeKeys(key).some((k) => keep.has(k))) setFilters(NO_FILTERS);
  }, []);

  return {
    search,
    setSearch,
    needle,
    matches,
    current,
    /** The current match's place (1-based), 0 when there is none. */
    currentAt: current ? Math.min(matchAt, matches.length - 1) + 1 : 0,
    step,
    filters,
    setFilters,
    filterActive,
    filterSet,
    filterToken,
    filterMatch,
    unhide,
  };
}

export type TreeSearch = ReturnType<typeof useTreeSearch>;
