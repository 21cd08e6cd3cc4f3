/**
 * `pythonJsonDumps(value)`: byte-identical to Python's `json.dumps(value, indent=4)` with the
 * defaults (`ensure_ascii=True`, separators `(",", ": ")` when indenting, no trailing newline).
 * Pure; no Node built-ins.
 *
 * Numbers: JS has one number type, so an integral number (`Number.isInteger`) is written as a
 * Python int (`2`, never `2.0`; never an exponent), and any other finite number as Python's
 * `repr(float)`. NaN and ±Infinity throw (Python would write the non-JSON `NaN`).
 * A `PyFloat` is always written as a Python float (`1.0`), for values that Python holds as floats
 * (graded-tree scores). Object keys are written in JS enumeration order (insertion order, except
 * that integer-like keys come first — irrelevant for rubric and graded-tree nodes, whose keys
 * are fixed).
 */

/** A number that Python holds as a float: written `1.0`, `0.5`, `1e-05`. `JSON.stringify` writes it as the number. */
export class PyFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}

/** `true` for strings that need no escaping at all: printable ASCII without `"` and `\`. */
const PLAIN = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

const HEX = "0123456789abcdef";

/** Escape sequence per code unit below 0x80 (`null`: written as is). */
const ASCII_ESCAPES: (string | null)[] = (() => {
  const table: (string | null)[] = [];
  for (let c = 0; c < 0x80; c++) {
    if (c < 0x20 || c === 0x7f) table.push(unicodeEscape(c));
    else table.push(null);
  }
  table[0x22] = '\\"';
  table[0x5c] = "\\\\";
  table[0x0a] = "\\n";
  table[0x0d] = "\\r";
  table[0x09] = "\\t";
  table[0x08] = "\\b";
  table[0x0c] = "\\f";
  return table;
})();

function unicodeEscape(code: number): string {
  return "\\u" + HEX[(code >> 12) & 15] + HEX[(code >> 8) & 15] + HEX[(code >> 4) & 15] + HEX[code & 15];
}

/**
 * A JSON string literal as Python's `json.dumps` (ensure_ascii) writes it. Works per UTF-16
 * code unit, so characters above U+FFFF come out as a surrogate pair and lone surrogates as
 * their own `\udXXX`, as in Python.
 */
export function pythonJsonString(s: string): string {
  if (PLAIN.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    let esc: string | null;
    if (c < 0x80) {
      esc = ASCII_ESCAPES[c];
      if (esc === null) continue;
    } else {
      esc = unicodeEscape(c);
    }
    if (i > start) out += s.slice(start, i);
    out += esc;
    start = i + 1;
  }
  if (start < n) out += s.slice(start);
  return out + '"';
}

/** Digits and decimal-point position of a finite non-zero |x|: |x| = 0.DIGITS × 10^decpt. */
function shortestDigits(abs: number): { digits: string; decpt: number } {
  // Number#toString gives the shortest digits that round-trip, choosing the closest when
  // several do (ECMA-262 Number::toString), like Python's repr (dtoa mode 0).
  const s = String(abs);
  let mantissa = s;
  let exp = 0;
  const e = s.indexOf("e");
  if (e !== -1) {
    mantissa = s.slice(0, e);
    exp = Number(s.slice(e + 1));
  }
  const dot = mantissa.indexOf(".");
  const intPart = dot === -1 ? mantissa : mantissa.slice(0, dot);
  const fracPart = dot === -1 ? "" : mantissa.slice(dot + 1);
  let digits = intPart + fracPart;
  let decpt = intPart.length + exp;
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 48 /* 0 */) lead++;
  digits = digits.slice(lead);
  decpt -= lead;
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  return { digits: digits.slice(0, end), decpt };
}

/** Python's `repr(float(x))` for a finite number: `0.1`, `2.0`, `1e-05`, `1.5e+16`. */
export function pythonFloatRepr(x: number): string {
  if (!Number.isFinite(x)) {
    throw new TypeError(`pythonJsonDumps: ${x} is not allowed in JSON`);
  }
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const { digits, decpt } = shortestDigits(Math.abs(x));
  const exp10 = decpt - 1;
  if (exp10 >= -4 && exp10 < 16) {
    if (decpt <= 0) return sign + "0." + "0".repeat(-decpt) + digits;
    if (decpt >= digits.length) return sign + digits + "0".repeat(decpt - digits.length) + ".0";
    return sign + digits.slice(0, decpt) + "." + digits.slice(decpt);
  }
  const mant = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
  const absExp = Math.abs(exp10);
  return sign + mant + "e" + (exp10 < 0 ? "-" : "+") + (absExp < 10 ? "0" : "") + absExp;
}

/**
 * A finite JS number as `json.dumps` writes it: an integral number as a Python int (`2`,
 * `10000000000000000`; `0` for -0; never an exponent), any other as `repr(float)`.
 */
export function pythonNumber(x: number): string {
  if (!Number.isInteger(x)) return pythonFloatRepr(x); // throws on NaN / Infinity
  if (x === 0) return "0"; // also -0
  const abs = Math.abs(x);
  if (abs < 1e21) return String(x); // JS writes fixed notation below 1e21
  // Shortest round-trip digits padded with zeros: no exponent, and the bytes Python writes for
  // a round int such as 10**23 (the exact binary value, via BigInt, would be 99999999999999991611392).
  const { digits, decpt } = shortestDigits(abs);
  return (x < 0 ? "-" : "") + digits + "0".repeat(decpt - digits.length);
}

/**
 * Python `json.dumps(value, indent=indent)` (indent >= 0; 0 puts every item on its own line).
 * A `PyFloat` is written as a float, any other integral number as an int. Iterative: a value of
 * any depth is written without growing the stack.
 */
export function pythonJsonDumps(value: unknown, indent = 4): string {
  // V8 builds `out +=` as a rope and flattens once: faster here than pushing chunks and joining.
  let out = "";
  const unit = " ".repeat(Math.max(0, Math.floor(indent))); // Python: " " * indent
  const newlines: string[] = [];
  const nl = (level: number): string => (newlines[level] ??= "\n" + unit.repeat(level));

  // An array or object being written: its items (with their keys, for an object) and the next one.
  type Open = { close: string; level: number; items: unknown[]; keys: string[] | null; next: number };
  const open: Open[] = [];

  /** Writes a scalar, or opens a container (written by the loop below). */
  const write = (v: unknown, level: number): void => {
    switch (typeof v) {
      case "string":
        out += pythonJsonString(v);
        return;
      case "number":
        out += pythonNumber(v);
        return;
      case "boolean":
        out += v ? "true" : "false";
        return;
      case "bigint":
        out += v.toString();
        return;
      case "object": {
        if (v === null) {
          out += "null";
          return;
        }
        if (v instanceof PyFloat) {
          out += pythonFloatRepr(v.value);
          return;
        }
        if (Array.isArray(v)) {
          if (v.length === 0) out += "[]";
          else open.push({ close: "]", level, items: v, keys: null, next: 0 });
          return;
        }
        const obj = v as Record<string, unknown>;
        const keys: string[] = [];
        for (const key in obj) if (Object.prototype.hasOwnProperty.call(obj, key)) keys.push(key);
        if (keys.length === 0) out += "{}";
        else open.push({ close: "}", level, items: keys.map((k) => obj[k]), keys, next: 0 });
        return;
      }
      default:
        throw new TypeError(`pythonJsonDumps: a ${typeof v} is not JSON serializable`);
    }
  };

  write(value, 0);
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (top.next === top.items.length) {
      out += nl(top.level) + top.close;
      open.pop();
      continue;
    }
    const i = top.next++;
    const inner = nl(top.level + 1);
    out += (i === 0 ? (top.keys ? "{" : "[") : ",") + inner;
    if (top.keys) out += pythonJsonString(top.keys[i]) + ": ";
    write(top.items[i], top.level + 1);
  }
  return out;
}
