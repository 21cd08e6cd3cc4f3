/**
 * The text of an uploaded JSON file (a `rubric.json`, a graded tree, a judge output): refused
 * when over a size limit (with both sizes) or not JSON (with line and column), else its value.
 * One reader for every PaperBench file, so every file is refused in the same words.
 * Pure; no Node built-ins.
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser";
import { findUnstorableText } from "@/lib/text";
import type { RubricIssue } from "./types";
import { childIndexPath, childKeyPath, ROOT_PATH } from "./walk";

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; issue: RubricIssue };

/** Bytes of `text` in UTF-8 (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/** 1-based line and column (in UTF-16 code units) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

/** "CommaExpected" → "comma expected". */
function humanizeCode(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** Where and why `text` is not JSON (called only after JSON.parse failed). */
function syntaxError(text: string, nativeError: unknown): RubricIssue {
  let errors: ParseError[] = [];
  try {
    parseJsonc(text, errors, {
      disallowComments: true,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
  } catch {
    errors = []; // e.g. a stack overflow on absurd nesting: fall back to the native message
  }
  const nativeMessage = nativeError instanceof Error ? nativeError.message : String(nativeError);
  if (errors.length > 0) {
    const first = errors[0];
    const { line, column } = lineColumn(text, first.offset);
    const what = humanizeCode(printParseErrorCode(first.error));
    return { path: ROOT_PATH, message: `not valid JSON: ${what} at line ${line}, column ${column}` };
  }
  const position = /position (\d+)/.exec(nativeMessage);
  const offset = position ? Number(position[1]) : /end of (JSON )?input/i.test(nativeMessage) ? text.length : -1;
  if (offset >= 0) {
    const { line, column } = lineColumn(text, offset);
    return {
      path: ROOT_PATH,
      message: `not valid JSON: ${nativeMessage} (line ${line}, column ${column})`,
    };
  }
  return { path: ROOT_PATH, message: `not valid JSON: ${nativeMessage}` };
}

/**
 * The value of a JSON text of at most `maxBytes` UTF-8 bytes; a leading byte-order mark is
 * ignored. Refused at `(root)` when over the limit or not JSON, and at the string's path when a
 * string holds what the database cannot store (`\u0000`, a lone surrogate).
 */
export function readJsonText(text: string, maxBytes: number): JsonTextResult {
  // Every UTF-16 code unit is 1 to 3 UTF-8 bytes: count exactly only when it could matter.
  if (text.length * 3 > maxBytes) {
    const bytes = utf8ByteLength(text);
    if (bytes > maxBytes) {
      return {
        ok: false,
        issue: {
          path: ROOT_PATH,
          message:
            `the file is ${groupThousands(bytes)} bytes (${mebibytes(bytes)}); ` +
            `the limit is ${groupThousands(maxBytes)} bytes (${mebibytes(maxBytes)})`,
        },
      };
    }
  }
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    return { ok: false, issue: syntaxError(source, err) };
  }
  const unstorable = findUnstorableText(value);
  if (unstorable) {
    const path = unstorable.path.reduce<string>(
      (at, key) => (typeof key === "number" ? childIndexPath(at, key) : childKeyPath(at, key)),
      ROOT_PATH,
    );
    return { ok: false, issue: { path, message: unstorable.message } };
  }
  return { ok: true, value };
}
