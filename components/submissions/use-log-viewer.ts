"use client";

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { findMatches, type LogLine } from "./log-model";

/** Close enough to the bottom to count as being there (a line's height, give or take). */
const BOTTOM_SLACK_PX = 24;

/**
 * Follow-tail and search over a log's lines: while following, each new line scrolls the view to
 * the bottom; scrolling up stops following, `follow()` jumps back. Search marks every match;
 * `step(±1)` moves to the next or previous one (wrapping) and scrolls it into view.
 */
export function useLogViewer(lines: readonly LogLine[]) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const [query, setQuery] = useState("");
  // -1: nothing jumped to yet (every match marked alike).
  const [currentIndex, setCurrentIndex] = useState(-1);
  const programmatic = useRef(false);

  const matches = useMemo(() => findMatches(lines, query), [lines, query]);
  const byLine = useMemo(() => {
    const map = new Map<number, number[]>();
    for (const m of matches) map.set(m.line, [...(map.get(m.line) ?? []), m.start]);
    return map;
  }, [matches]);
  const index = currentIndex < 0 || !matches.length ? -1 : Math.min(currentIndex, matches.length - 1);
  const current = index >= 0 ? matches[index] : null;

  const scrollToBottom = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    programmatic.current = true;
    el.scrollTop = el.scrollHeight;
  }, []);

  useLayoutEffect(() => {
    if (following) scrollToBottom();
  }, [following, lines, scrollToBottom]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    if (programmatic.current) {
      programmatic.current = false;
      return;
    }
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
    setFollowing(atBottom);
  }, []);

  const reveal = useCallback((line: number) => {
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-line="${line + 1}"]`);
    if (!el) return;
    programmatic.current = true;
    el.scrollIntoView({ block: "center" });
  }, []);

  const step = useCallback(
    (delta: 1 | -1) => {
      if (!matches.length) return;
      const next =
        index < 0 ? (delta === 1 ? 0 : matches.length - 1) : (index + delta + matches.length) % matches.length;
      setCurrentIndex(next);
      setFollowing(false);
      reveal(matches[next].line);
    },
    [index, matches, reveal],
  );

  // A new query starts before its first match.
  useEffect(() => {
    setCurrentIndex(-1);
  }, [query]);

  return {
    scrollRef,
    onScroll,
    following,
    follow: () => setFollowing(true),
    unfollow: () => setFollowing(false),
    query,
    setQuery,
    matches,
    byLine,
    current,
    currentIndex: index,
    step,
  };
}
