/**
 * The one rule for how a submission file becomes the text a judge reads, shared by the CLI (a
 * folder or an extracted archive, server/judge/directory-submission.ts) and the worker (the
 * reproduction's outputs archive, server/judge/judge-submission-files.ts), so both show the same.
 *
 * PaperBench reads every whitelisted file, whatever its size or bytes: its first 200,000 characters,
 * decoded as UTF-8, else as latin-1. The studio shows a UTF-8 file of up to 1 MiB whole (more than
 * PaperBench when it is longer than 200,000 characters) and any other file as PaperBench reads it,
 * with a line saying what was left out, so it never shows less than PaperBench does.
 */

import { bytesNeededFor, readPythonText, SIZE_LIMIT_CHARS } from "@/lib/judge/paperbench/python-text";

/** A UTF-8 file up to this size is shown whole. */
export const WHOLE_TEXT_MAX_BYTES = 1024 * 1024;
/** PaperBench's `SIZE_LIMIT_BYTES`, which `open().read(n)` counts in characters. */
export const PAPERBENCH_MAX_CHARS = SIZE_LIMIT_CHARS;
/** Bytes of a larger file a reader keeps: enough for PaperBench's read to come out as on the whole file. */
export const HEAD_BYTES = Math.max(WHOLE_TEXT_MAX_BYTES, bytesNeededFor(PAPERBENCH_MAX_CHARS));

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lossy = new TextDecoder("utf-8", { ignoreBOM: true });
const latin1 = new TextDecoder("latin1");

function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/** Python's text mode (universal newlines): `\r\n` and `\r` read as `\n`. */
export function pythonNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The first `maxChars` code points of `text` (Python's `read(n)` counts code points). */
export function firstCodePoints(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let units = 0;
  for (let chars = 0; chars < maxChars && units < text.length; chars++) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, units);
}

/** PaperBench's `safe_read_file(path, 200_000)` over a file's first bytes (the port: lib/judge/paperbench/python-text.ts). */
export function paperbenchFileHead(head: Uint8Array): string {
  return readPythonText(head, PAPERBENCH_MAX_CHARS);
}

/**
 * The text a judge reads of a candidate file, from its first bytes (`head`, at least `HEAD_BYTES`
 * of them or the whole file) and its real size.
 */
export function judgeFileText(head: Uint8Array, size: number): string {
  if (size <= WHOLE_TEXT_MAX_BYTES && head.length >= size) {
    const whole = strictUtf8(head);
    if (whole !== null) return whole;
  }
  const text = paperbenchFileHead(head);
  const why =
    size > WHOLE_TEXT_MAX_BYTES ? `the file is ${size} bytes` : "the file is not UTF-8 (read as PaperBench reads it)";
  const cut = text.length >= PAPERBENCH_MAX_CHARS || head.length < size;
  return cut ? `${text}\n[… only the first ${PAPERBENCH_MAX_CHARS} characters are shown: ${why} …]` : text;
}

/**
 * reproduce.log's text, whole and never dropped, decoded so that its first 200,000 characters are
 * what PaperBench reads: UTF-8 when PaperBench's read is (an invalid byte past what it reads is
 * replaced), else latin-1.
 */
export function judgeLogText(bytes: Uint8Array): string {
  const whole = strictUtf8(bytes);
  if (whole !== null) return whole;
  const utf8 = lossy.decode(bytes);
  return firstCodePoints(pythonNewlines(utf8), PAPERBENCH_MAX_CHARS) === paperbenchFileHead(bytes)
    ? utf8
    : latin1.decode(bytes);
}
