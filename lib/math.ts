/**
 * Where math is in plain text: requirements, explanations and reasons are plain text that may hold
 * TeX between `$…$` (inline) or `$$…$$` (display). The rules follow pandoc's so that prices read as
 * prices: an inline opener must be followed by a non-space, its closer preceded by a non-space and
 * not followed by a digit ("$5 and $10" stays text), `\$` is a literal dollar, and a dollar without
 * a partner stays text. The markdown renderer applies the same `isInlineMath` to what remark-math
 * finds, so paper text and plain text agree. Pure; no Node built-ins.
 */

export type MathSegment = { kind: "text"; text: string } | { kind: "math"; tex: string; display: boolean };

/** Whether `$body$` followed by `next` (a character or "" at the end) is inline math. */
export function isInlineMath(body: string, next: string): boolean {
  return body.length > 0 && !/\s/.test(body[0]) && !/\s/.test(body[body.length - 1]) && !/[0-9]/.test(next);
}

/** Whether `text` may hold math: a cheap test that lets most rows skip the splitter. */
export function mayHoldMath(text: string): boolean {
  return text.includes("$");
}

/** Index of the next unescaped `$` at or after `from`, or -1. */
function nextDollar(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "$") return i;
  }
  return -1;
}

/** Index of the next unescaped `$$` at or after `from`, or -1. */
function nextDoubleDollar(text: string, from: number): number {
  for (let i = nextDollar(text, from); i !== -1; i = nextDollar(text, i + 1)) {
    if (text[i + 1] === "$") return i;
  }
  return -1;
}

/** Text with its `\$` escapes made dollars (other backslashes are kept: they are not ours). */
function unescapeDollars(text: string): string {
  return text.replace(/\\\$/g, "$");
}

/** One formula found in a text: its source range (dollars included) and its TeX. */
export interface MathRange {
  from: number;
  to: number;
  tex: string;
  display: boolean;
}

/** The formulas of `text`, in order. */
export function mathRanges(text: string): MathRange[] {
  const found: MathRange[] = [];
  let at = 0;
  while (at < text.length) {
    const open = nextDollar(text, at);
    if (open === -1) break;
    if (text[open + 1] === "$") {
      const close = nextDoubleDollar(text, open + 2);
      const tex = close === -1 ? "" : text.slice(open + 2, close).trim();
      if (tex) found.push({ from: open, to: close + 2, tex, display: true });
      at = tex ? close + 2 : open + 2;
      continue;
    }
    // Inline: the closer is the next unescaped dollar; TeX inline math cannot hold one itself.
    const close = nextDollar(text, open + 1);
    const body = close === -1 ? "" : text.slice(open + 1, close);
    if (close !== -1 && text[close + 1] !== "$" && isInlineMath(body, text[close + 1] ?? "")) {
      found.push({ from: open, to: close + 1, tex: body, display: false });
      at = close + 1;
    } else at = open + 1;
  }
  return found;
}

/** `text` cut into plain text and math, in order. */
export function splitMath(text: string): MathSegment[] {
  const segments: MathSegment[] = [];
  let at = 0;
  for (const m of mathRanges(text)) {
    if (m.from > at) segments.push({ kind: "text", text: unescapeDollars(text.slice(at, m.from)) });
    segments.push({ kind: "math", tex: m.tex, display: m.display });
    at = m.to;
  }
  if (at < text.length) segments.push({ kind: "text", text: unescapeDollars(text.slice(at)) });
  return segments;
}
