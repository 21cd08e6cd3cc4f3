import { TOKEN_PREFIX } from "@/lib/runner/protocol";

export const MASK = "***";

/** A studio token, should one ever appear in a job's output (the job is never given one). */
const TOKEN_PATTERN = new RegExp(`(?:${Object.values(TOKEN_PREFIX).join("|")})[A-Za-z0-9._-]+`, "g");
/** The start of a token at the end of a piece of text: it may go on in the next piece. */
const TOKEN_TAIL = new RegExp(
  `(?:${Object.values(TOKEN_PREFIX)
    .map((p) => `${p}[A-Za-z0-9._-]*|${[...p].map((_, i) => p.slice(0, i + 1)).join("|")}`)
    .join("|")})$`,
);
const BREAKS = /[\r\n]+/g;
const BREAK = /[\r\n]/;
/**
 * Output that ends in a line break is held back (it may be a secret broken across lines) only when
 * at least this many of a secret's first characters come before it: a finished line that happens
 * to end in a secret's first letter goes out at once.
 */
const MIN_HELD_ACROSS_BREAK = 4;

const isBreak = (c: string) => c === "\n" || c === "\r";

/**
 * Replaces the paper's secret values (and any studio token) with `***` in text that leaves the job:
 * its live log, reproduce.log, the metadata, and the outputs' contents, file names and link targets.
 *
 * A value is found whole, or broken by line breaks (`\n`, `\r\n`, `\r`: wrapped output, a
 * multi-line key printed with other line endings): line breaks count for nothing on either side,
 * so each piece of a broken value is masked and the breaks kept. Output arrives in pieces (pipe
 * reads, log chunks) and a value may be cut between two of them, so `push` keeps back the end of
 * the text that could still be the start of one (no more) and gives it out with the next piece or
 * at `end`. What it cannot catch (a value encoded, reversed, split by other characters, …): README.
 */
export class SecretMasker {
  /** The values without their own line breaks, longest first. */
  private readonly secrets: string[];
  private pending = "";

  constructor(secrets: Iterable<string>) {
    this.secrets = [...new Set([...secrets].map((s) => s.replace(BREAKS, "")).filter((s) => s.length > 0))].sort(
      (a, b) => b.length - a.length,
    );
  }

  /** Masks a whole text (no piece to come after it). */
  mask(text: string): string {
    const out = text.replace(TOKEN_PATTERN, MASK);
    if (this.secrets.length === 0) return out;
    if (!BREAK.test(out)) {
      let plain = out;
      for (const secret of this.secrets) plain = plain.split(secret).join(MASK);
      return plain;
    }
    const ranges = this.matches(out);
    if (ranges.length === 0) return out;
    let masked = "";
    let from = 0;
    for (const [start, end] of ranges) {
      // Each piece between the line breaks becomes `***`; the breaks stay, so lines stay lines.
      masked += out.slice(from, start) + out.slice(start, end).replace(/[^\r\n]+/g, MASK);
      from = end;
    }
    return masked + out.slice(from);
  }

  push(text: string): string {
    const buffer = this.pending + text;
    const stripped = buffer.replace(BREAKS, "");
    let cut = buffer.length;
    // Keep back the longest end of the text that is the start of a secret, line breaks aside.
    for (const secret of this.secrets) {
      for (let k = Math.min(secret.length - 1, stripped.length); k > 0; k--) {
        if (!stripped.endsWith(secret.slice(0, k))) continue;
        const at = originFromEnd(buffer, k);
        if (buffer.length - at > k && k < MIN_HELD_ACROSS_BREAK) continue;
        cut = Math.min(cut, at);
        break;
      }
    }
    // Never cut inside a secret that is already whole in the buffer.
    for (const [start, end] of this.matches(buffer)) if (start < cut && end > cut) cut = start;
    const tail = TOKEN_TAIL.exec(buffer.slice(0, cut));
    if (tail) cut = tail.index;
    this.pending = buffer.slice(cut);
    return this.mask(buffer.slice(0, cut));
  }

  end(): string {
    const rest = this.pending;
    this.pending = "";
    return this.mask(rest);
  }

  /** Where the secrets are in `text`, line breaks aside: sorted, overlapping ones merged, as [start, end) of `text`. */
  private matches(text: string): [number, number][] {
    const stripped = text.replace(BREAKS, "");
    const found: [number, number][] = [];
    for (const secret of this.secrets) {
      for (let at = stripped.indexOf(secret); at !== -1; at = stripped.indexOf(secret, at + secret.length))
        found.push([at, at + secret.length]);
    }
    if (found.length === 0) return [];
    found.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [start, end] of found) {
      const last = merged.at(-1);
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else merged.push([start, end]);
    }
    // From positions in the stripped text to positions in `text`, in one pass.
    const bounds = merged.flatMap(([start, end]) => [start, end - 1]);
    const origin: number[] = [];
    for (let i = 0, n = 0; i < text.length && origin.length < bounds.length; i++) {
      if (isBreak(text[i])) continue;
      while (origin.length < bounds.length && bounds[origin.length] === n) origin.push(i);
      n++;
    }
    return merged.map((_, j) => [origin[2 * j], origin[2 * j + 1] + 1]);
  }
}

/** The index in `text` where its last `k` characters that are not line breaks begin. */
function originFromEnd(text: string, k: number): number {
  let i = text.length;
  for (let counted = 0; counted < k;) if (!isBreak(text[--i])) counted++;
  return i;
}
