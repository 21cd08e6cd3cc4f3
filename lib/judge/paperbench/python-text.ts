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

// ---------------------------------------------------------------------------------------------
// safe_read_file: `open(path, encoding="utf-8").read(n)`, on UnicodeDecodeError the same in latin-1.

/** PaperBench's `SIZE_LIMIT_BYTES` (judge/utils.py): despite the name, `read(n)` counts characters. */
export const SIZE_LIMIT_CHARS = 200_000;

/** TextIOWrapper's `_CHUNK_SIZE`. */
const CHUNK_SIZE = 8192;

/**
 * How many leading bytes of a file `readPythonText(head, maxChars)` needs to answer exactly as if
 * it had the whole file. Before each chunk, c < maxChars characters came out of at most 4c + 4
 * bytes (4 per character, plus an incomplete sequence and a held-back `\r`); the chunk then asks
 * for max(8192, b2cratio · (maxChars − c)) bytes, and a full chunk (≥ 8192 bytes, so ≥ 2047
 * characters) has b2cratio ≤ 8192 / 2047 < 4.002. So 5·maxChars + 8192 + 16 bytes always suffice
 * (about 1 MB for 200 000 characters).
 */
export function bytesNeededFor(maxChars: number): number {
  if (!(maxChars >= 0) || maxChars === Infinity) return Infinity;
  return 5 * maxChars + CHUNK_SIZE + 16;
}

/**
 * What PaperBench's `safe_read_file(path, maxChars)` returns for a file with these bytes (CPython
 * 3.11). `bytes` is the whole file, or at least its first `bytesNeededFor(maxChars)` bytes.
 *
 * It reproduces how CPython's C TextIOWrapper runs `read(n)` in universal-newline mode, because
 * whether the UTF-8 attempt raises depends on it:
 * - each chunk is one `read1(max(8192, trunc(max(b2cratio, 1) · (n − characters so far))))` of
 *   the BufferedReader (b2cratio: bytes per character of the previous chunk, 0 at first), which
 *   with an empty buffer is one raw read of exactly that many bytes (fewer at the end of the file);
 *   reading stops as soon as n characters came out, so an invalid byte after the last chunk read
 *   is never seen, while one anywhere inside a chunk read raises, even past the n-th character;
 * - the incremental UTF-8 decoder keeps an incomplete sequence at a chunk's end for the next chunk
 *   (and, CPython's quirk, also `ED A0..BF`, the start of an encoded surrogate, which is invalid);
 *   at the end of the file (a final decode) anything kept raises;
 * - IncrementalNewlineDecoder holds back a chunk's last `\r` and turns `\r\n` and `\r` into `\n`;
 *   characters are counted after that, in code points; a UTF-8 BOM stays as U+FEFF.
 * Latin-1 never raises, so its result is the translated text's first n characters.
 */
export function readPythonText(bytes: Uint8Array, maxChars: number = SIZE_LIMIT_CHARS): string {
  const n = maxChars >= 0 ? maxChars : Infinity; // read(-1) reads everything
  if (n === 0) return "";
  const decodedEnd = utf8DecodedEnd(bytes, n);
  let text: string;
  if (decodedEnd >= 0) {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, decodedEnd));
  } else {
    // Every output character takes at most two bytes (`\r\n`); one more decides a final `\r`.
    text = latin1(bytes.subarray(0, Math.min(bytes.length, 2 * n + 2)));
  }
  return firstCodePoints(translateNewlines(text), n);
}

/**
 * Runs TextIOWrapper.read(n)'s chunk loop over UTF-8: the number of bytes decoded when it stops
 * (the text is their decoding), or -1 where CPython raises UnicodeDecodeError.
 */
function utf8DecodedEnd(bytes: Uint8Array, n: number): number {
  let readEnd = 0; // bytes handed to the decoder so far
  let decoded = 0; // of them, bytes decoded (the rest is an incomplete sequence the decoder keeps)
  let pendingCR = false;
  let chars = 0;
  let bytesPerChar = 0; // TextIOWrapper's b2cratio: the last chunk's bytes per character it gave
  while (chars < n) {
    // textiowrapper_read_chunk: size_hint = (Py_ssize_t)(max(b2cratio, 1.0) * remaining)
    const size = Math.max(CHUNK_SIZE, Math.trunc(Math.max(bytesPerChar, 1) * (n - chars)));
    const end = Math.min(bytes.length, readEnd + size);
    const final = end === readEnd; // read1 returned b"": the decoder is told the input is over
    const nbytes = end - readEnd;
    readEnd = end;
    const chunk = scanUtf8(bytes, decoded, end, final);
    if (chunk === null) return -1;
    decoded = chunk.next;
    // IncrementalNewlineDecoder.decode
    let length = chunk.codePoints;
    let pairs = chunk.crlf;
    let endsWithCR = chunk.lastIsCR;
    if (pendingCR && (length > 0 || final)) {
      if (chunk.firstIsLF) pairs++;
      if (length === 0) endsWithCR = true;
      length++;
      pendingCR = false;
    }
    if (!final && length > 0 && endsWithCR) {
      length--;
      pendingCR = true;
    }
    const nchars = length - pairs;
    bytesPerChar = nchars > 0 ? nbytes / nchars : 0;
    chars += nchars;
    if (final) break;
  }
  return decoded;
}

interface Utf8Chunk {
  next: number;
  codePoints: number;
  crlf: number;
  firstIsLF: boolean;
  lastIsCR: boolean;
}

const isContinuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;

/**
 * CPython's `_PyUnicode_DecodeUTF8Stateful` (strict) over bytes[start, end): null where it raises,
 * else how far it decoded. Not final, it stops before a sequence cut by `end` that could still be
 * valid, or is `ED A0..BF` (Objects/unicodeobject.c keeps that one for the next call too).
 */
function scanUtf8(bytes: Uint8Array, start: number, end: number, final: boolean): Utf8Chunk | null {
  let i = start;
  let codePoints = 0;
  let crlf = 0;
  let prevCR = false;
  let firstIsLF = false;
  while (i < end) {
    const b = bytes[i];
    const avail = end - i;
    let width: number;
    if (b < 0x80) width = 1;
    else if (b < 0xc2) return null;
    else if (b < 0xe0) {
      if (avail < 2) break;
      if (!isContinuation(bytes[i + 1])) return null;
      width = 2;
    } else if (b < 0xf0) {
      const b1 = bytes[i + 1];
      const badSecond = (b1: number) => !isContinuation(b1) || (b1 < 0xa0 ? b === 0xe0 : b === 0xed);
      if (avail < 3) {
        if (avail < 2) break;
        if (badSecond(b1)) {
          if (!final && b === 0xed && b1 >= 0xa0 && b1 <= 0xbf) break; // the surrogate quirk
          return null;
        }
        break;
      }
      if (badSecond(b1) || !isContinuation(bytes[i + 2])) return null;
      width = 3;
    } else if (b < 0xf5) {
      const b1 = bytes[i + 1];
      const badSecond = !isContinuation(b1) || (b1 < 0x90 ? b === 0xf0 : b === 0xf4);
      if (avail < 4) {
        if (avail < 2) break;
        if (badSecond) return null;
        if (avail < 3) break;
        if (!isContinuation(bytes[i + 2])) return null;
        break;
      }
      if (badSecond || !isContinuation(bytes[i + 2]) || !isContinuation(bytes[i + 3])) return null;
      width = 4;
    } else return null;
    if (codePoints === 0) firstIsLF = b === 0x0a;
    if (b === 0x0a && prevCR) crlf++;
    prevCR = b === 0x0d;
    codePoints++;
    i += width;
  }
  // Left over: an incomplete sequence, which the final decode reports as "unexpected end of data".
  if (i < end && final) return null;
  return { next: i, codePoints, crlf, firstIsLF, lastIsCR: prevCR };
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

/** Universal newlines on input: `\r\n` and a lone `\r` become `\n`. */
function translateNewlines(s: string): string {
  return s.includes("\r") ? s.replace(/\r\n?/g, "\n") : s;
}

/** The first n code points (Python's `s[:n]`); a surrogate pair is one character. */
function firstCodePoints(s: string, n: number): string {
  if (s.length <= n) return s;
  let units = 0;
  for (let count = 0; count < n && units < s.length; count++) {
    const c = s.charCodeAt(units);
    units +=
      c >= 0xd800 && c <= 0xdbff && units + 1 < s.length && (s.charCodeAt(units + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return s.slice(0, units);
}
