/**
 * Text the database can store. PostgreSQL refuses U+0000 in `text` and `jsonb`, and a lone
 * surrogate (half of a UTF-16 pair, which JSON's `\ud800` escapes can make) is not Unicode at all;
 * either one in a write used to fail as a 500. Every text field of every request schema is `text()`,
 * so it is refused as a 400 naming the field; every JSON file read goes through `findUnstorableText`;
 * a kept file (a `reproduce.log`) is cleaned with `replaceNul` and reported instead of refused, and
 * so is every text of the runner protocol (`keptText`: a job's output is whatever reproduce.sh
 * printed, and refusing it would lose the log and re-run the job). Pure; no Node built-ins.
 */
import { z } from "zod";

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

/** Why `value` cannot be stored ("must not contain …"), or null when it can. */
export function unstorableText(value: string): string | null {
  const found = UNSTORABLE.exec(value);
  if (!found) return null;
  if (found[0] === "\u0000") return "must not contain NUL characters (U+0000)";
  const code = found[0].charCodeAt(0).toString(16).toUpperCase();
  return `must not contain a lone surrogate (U+${code}); the text is not valid Unicode`;
}

/** `z.string()` that refuses what the database cannot store: the start of every text field. */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).superRefine((value, ctx) => {
    const problem = unstorableText(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

/**
 * The first string (a value or an object key) in a parsed JSON value that cannot be stored, with
 * its path from the value (`[]` for the value itself) and why. Iterative: any depth.
 */
export function findUnstorableText(value: unknown): { path: (string | number)[]; message: string } | null {
  // Each entry links to its parent's path: a deep value costs no copying of paths.
  type At = { key: string | number; up: At } | null;
  const pathOf = (at: At, last?: string): (string | number)[] => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let a = at; a; a = a.up) path.push(a.key);
    return path.reverse();
  };
  const stack: { value: unknown; at: At }[] = [{ value, at: null }];
  while (stack.length > 0) {
    const { value: v, at } = stack.pop()!;
    if (typeof v === "string") {
      const problem = unstorableText(v);
      if (problem) return { path: pathOf(at), message: problem };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], at: { key: i, up: at } });
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const problem = unstorableText(keys[i]);
        if (problem) return { path: pathOf(at, keys[i]), message: `(a key) ${problem}` };
        stack.push({ value: (v as Record<string, unknown>)[keys[i]], at: { key: keys[i], up: at } });
      }
    }
  }
  return null;
}

/** `text` with each NUL replaced by U+FFFD (the replacement character), and how many there were. */
export function replaceNul(text: string): { text: string; replaced: number } {
  let replaced = 0;
  const cleaned = text.replace(/\u0000/g, () => {
    replaced++;
    return "\uFFFD";
  });
  return { text: cleaned, replaced };
}

/** `text` with each NUL and each lone surrogate replaced by U+FFFD: what the database can store, same length. */
export function storableText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, "\uFFFD") : text;
}

/**
 * A text that is kept whatever it holds (the runner protocol's: log chunks, reasons, metadata, a
 * runner's name): zod's checks on `schema` first, then each NUL and lone surrogate made U+FFFD.
 */
export function keptText<T extends z.ZodString>(schema: T) {
  return schema.transform(storableText);
}
