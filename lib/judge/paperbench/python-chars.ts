/**
 * CPython's character classes (tables in python-unicode.ts, generated from CPython 3.11) as
 * predicates and as regular-expression classes: JavaScript's `\d`, `\w`, `\s` and `\b` are ASCII
 * or differ from Python's (`\s` takes U+FEFF and not U+001C–U+001F; Python's `\d` is every
 * decimal digit, its `\w` every letter and number).
 */
import { PY_DECIMAL, PY_DIGIT, PY_SPACE, PY_WORD } from "./python-unicode";

function inRanges(ranges: readonly number[], cp: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[2 * mid]) hi = mid - 1;
    else if (cp > ranges[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The inside of a `[...]` class for a regular expression with the `u` flag. */
function classBody(ranges: readonly number[]): string {
  let body = "";
  const hex = (cp: number) => `\\u{${cp.toString(16)}}`;
  for (let i = 0; i < ranges.length; i += 2)
    body += ranges[i] === ranges[i + 1] ? hex(ranges[i]) : `${hex(ranges[i])}-${hex(ranges[i + 1])}`;
  return body;
}

/** Python `re`'s `\d`, `\w`, `\s` (str patterns), for `new RegExp(..., "u")`. */
export const RE_DECIMAL = `[${classBody(PY_DECIMAL)}]`;
export const RE_WORD = `[${classBody(PY_WORD)}]`;
export const RE_SPACE = `[${classBody(PY_SPACE)}]`;

/** `str.isspace()` for one code point. */
export const isPythonSpace = (cp: number) => inRanges(PY_SPACE, cp);

/** `any(c.isdigit() for c in s)`, over code points. */
export function hasPythonDigit(s: string): boolean {
  for (const ch of s) if (inRanges(PY_DIGIT, ch.codePointAt(0)!)) return true;
  return false;
}

/** `s.split()` (no argument): runs of Python whitespace separate; none at either end. */
export function pythonSplitWhitespace(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  // Every Python whitespace character is in the BMP, so UTF-16 units can be tested one by one.
  for (let i = 0; i < s.length; i++) {
    if (isPythonSpace(s.charCodeAt(i))) {
      if (start >= 0) out.push(s.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}

/**
 * `s.strip()` (Python whitespace, not JavaScript's `trim`: U+001C–U+001F and U+0085 are stripped,
 * U+FEFF is not), or `s.strip(chars)`: every code point of `chars` off both ends.
 */
export function pythonStrip(s: string, chars?: string): string {
  const set = chars === undefined ? null : new Set(Array.from(chars, (c) => c.codePointAt(0)!));
  const strippable = (cp: number) => (set ? set.has(cp) : isPythonSpace(cp));
  const cps = Array.from(s);
  let start = 0;
  let end = cps.length;
  while (start < end && strippable(cps[start].codePointAt(0)!)) start++;
  while (end > start && strippable(cps[end - 1].codePointAt(0)!)) end--;
  return start === 0 && end === cps.length ? s : cps.slice(start, end).join("");
}
