/**
 * What a review tree row shows of a requirement. PaperBench's sibling leaves often share a long
 * opening ("The MLP for solving the Convection problem has been trained with …") and differ only at
 * the end, so a row that shows the start shows the same words on every sibling. A row shows the
 * distinguishing tail instead: from a few words before the point where it parts from its most
 * similar sibling, after an ellipsis. The full text is on hover and in the leaf panel. Pure.
 */
import { mathRanges } from "@/lib/math";

/** A shared opening shorter than this is read at a glance: the row shows the whole text. */
const MIN_SHARED = 32;
/** Characters kept before the point of divergence, so the tail reads as a phrase. */
const CONTEXT = 28;

/** Whitespace collapsed: how a requirement reads in a row. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Where `text`'s distinguishing tail starts when `shared` characters open it like a sibling's: a word start, never inside a formula. */
export function tailStart(text: string, shared: number): number {
  if (shared < MIN_SHARED) return 0;
  let start = text.lastIndexOf(" ", Math.max(0, shared - CONTEXT)) + 1;
  for (const m of mathRanges(text)) if (m.from < start && start < m.to) start = m.from;
  // Too little cut off to be worth the ellipsis.
  return start < MIN_SHARED / 2 ? 0 : start;
}

/**
 * For each of `texts` (the one-line requirements of siblings), where its row text starts: 0 for
 * the whole text. The longest opening a text shares with any sibling is the longer of the ones it
 * shares with its neighbours in sorted order.
 */
export function distinguishingStarts(texts: readonly string[]): number[] {
  const starts = new Array<number>(texts.length).fill(0);
  if (texts.length < 2) return starts;
  const order = texts.map((_, i) => i).sort((a, b) => (texts[a] < texts[b] ? -1 : texts[a] > texts[b] ? 1 : 0));
  const withNext = order.map((i, at) => (at + 1 < order.length ? commonPrefix(texts[i], texts[order[at + 1]]) : 0));
  order.forEach((i, at) => {
    const shared = Math.max(withNext[at], at > 0 ? withNext[at - 1] : 0);
    starts[i] = tailStart(texts[i], shared);
  });
  return starts;
}

/** The text a row shows: the tail after an ellipsis when it starts past 0. */
export function rowText(text: string, start: number): string {
  return start > 0 ? `…${text.slice(start)}` : text;
}
