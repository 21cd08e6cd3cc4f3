import { TOKEN_PREFIX } from "@/lib/runner/protocol";

export const MASK = "***";

/** A studio token, should one ever appear in a job's output (the job is never given one). */
const TOKEN_PATTERN = new RegExp(`(?:${Object.values(TOKEN_PREFIX).join("|")})[A-Za-z0-9._-]+`, "g");
/** The start of a token at the end of a piece of text: it may go on in the next piece. */
const TOKEN_TAIL = new RegExp(`(?:${Object.values(TOKEN_PREFIX).map((p) => `${p}[A-Za-z0-9._-]*|${[...p].map((_, i) => p.slice(0, i + 1)).join("|")}`).join("|")})$`);

/**
 * Replaces the paper's secret values (and any studio token) with `***` in text that leaves the job:
 * its live log, reproduce.log, the metadata. Output arrives in pieces, and a secret may be cut
 * between two of them, so `push` keeps back the end of the text that could still be the start of
 * one (no more), and gives it out with the next piece (or at `end`).
 */
export class SecretMasker {
  private readonly secrets: string[];
  private pending = "";

  constructor(secrets: Iterable<string>) {
    this.secrets = [...new Set([...secrets].filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  }

  /** Masks a whole text (no piece to come after it). */
  mask(text: string): string {
    let out = text.replace(TOKEN_PATTERN, MASK);
    for (const secret of this.secrets) out = out.split(secret).join(MASK);
    return out;
  }

  push(text: string): string {
    const buffer = this.pending + text;
    // Keep back only the longest end of the text that is the start of a secret: a line that cannot be one goes out at once.
    let cut = buffer.length;
    for (const secret of this.secrets) {
      for (let k = Math.min(secret.length - 1, buffer.length); k > 0; k--) {
        if (buffer.endsWith(secret.slice(0, k))) {
          cut = Math.min(cut, buffer.length - k);
          break;
        }
      }
    }
    // Never cut inside a secret that is already whole in the buffer.
    for (const secret of this.secrets) {
      for (let at = buffer.indexOf(secret); at !== -1 && at < cut; at = buffer.indexOf(secret, at + 1)) {
        if (at + secret.length > cut) cut = at;
      }
    }
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
}
