/**
 * tiktoken's `o200k_base` as SimpleJudge uses it: `encode(text, disallowed_special=())` (special-token
 * text is plain text) and `decode(tokens)`, which joins the tokens' bytes and decodes them with
 * `errors="replace"` — a cut inside a multi-byte character becomes U+FFFD (gpt-tokenizer's own
 * `decode` drops such bytes instead, so it is not used here).
 */
import o200k from "gpt-tokenizer/encoding/o200k_base";

const PLAIN = { disallowedSpecial: new Set<string>() };
const utf8 = new TextEncoder();
// ignoreBOM: Python keeps a leading U+FEFF; fatal: false replaces as errors="replace" does.
const replacing = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

interface BpeCore {
  decodeNativeGenerator(tokens: Iterable<number>): Iterable<string | Uint8Array>;
}

export function encodeO200k(text: string): number[] {
  return o200k.encode(text, PLAIN);
}

export function decodeO200k(tokens: readonly number[]): string {
  const core = (o200k as unknown as { bytePairEncodingCoreProcessor: BpeCore }).bytePairEncodingCoreProcessor;
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const part of core.decodeNativeGenerator(tokens)) {
    const bytes = typeof part === "string" ? utf8.encode(part) : part;
    parts.push(bytes);
    size += bytes.length;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return replacing.decode(all);
}

/** Python's `seq[:stop]` (a negative stop counts from the end). */
export function pySliceTo<T>(seq: readonly T[], stop: number): T[] {
  const end = stop < 0 ? Math.max(0, seq.length + stop) : Math.min(seq.length, stop);
  return seq.slice(0, end);
}
