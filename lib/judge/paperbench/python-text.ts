/**
 * Python text semantics PaperBench's judge depends on.
 */

/** `str.splitlines()` separators besides `\r\n`, which counts as one. */
const LINE_BREAKS = new Set(["\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]);

/** Python's `str.splitlines()` (no `keepends`): every Unicode line boundary, no trailing empty line. */
export function pythonSplitlines(s: string): string[] {
  const lines: string[] = [];
  let start = 0;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (LINE_BREAKS.has(c)) {
      lines.push(s.slice(start, i));
      i += c === "\r" && s[i + 1] === "\n" ? 2 : 1;
      start = i;
    } else {
      i++;
    }
  }
  if (start < s.length) lines.push(s.slice(start));
  return lines;
}
