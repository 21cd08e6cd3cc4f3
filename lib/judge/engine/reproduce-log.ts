/**
 * `reproduce.log` as the judge reads it. Progress bars rewrite their line with carriage returns
 * and training loops print the same line thousands of times: only the last state of a rewritten
 * line is kept and runs of identical lines collapse to one with a count. What still exceeds the
 * budget keeps its head *and* its tail: final metrics are printed last (PaperBench reads only the
 * first 200 kB and loses them).
 */
import { decodeTokens, encodeText } from "./budget";

/** Share of a cut log's budget given to its head; the rest, the larger part, to its tail. */
const HEAD_SHARE = 0.4;

export function reduceLog(log: string): string {
  const out: string[] = [];
  let last: string | null = null;
  let repeats = 0;
  const flush = () => {
    if (repeats > 0) out.push(`[the line above was repeated ${repeats} more time${repeats === 1 ? "" : "s"}]`);
    repeats = 0;
  };
  for (const raw of log.split("\n")) {
    // A carriage return inside a line: the terminal showed only what came after the last one.
    const parts = raw.replace(/\r+$/, "").split("\r");
    const line = parts[parts.length - 1];
    if (line === last) {
      repeats++;
      continue;
    }
    flush();
    out.push(line);
    last = line;
  }
  flush();
  return out.join("\n");
}

export interface FittedLog {
  text: string;
  tokens: number;
  /** Tokens left out of the middle; 0 when the log fits. */
  omittedTokens: number;
}

/** The reduced log within `maxTokens`: whole when it fits, else its head and tail around a marker. */
export function fitLog(model: string, log: string, maxTokens: number): FittedLog {
  const tokens = encodeText(model, reduceLog(log));
  if (tokens.length <= maxTokens) return { text: decodeTokens(model, tokens), tokens: tokens.length, omittedTokens: 0 };
  const room = Math.max(0, maxTokens - 20); // the marker's own tokens
  const headN = Math.floor(room * HEAD_SHARE);
  const tailN = room - headN;
  const omitted = tokens.length - headN - tailN;
  const head = decodeTokens(model, tokens.slice(0, headN));
  const tail = decodeTokens(model, tokens.slice(tokens.length - tailN));
  const text = `${head}\n[… ${omitted} tokens of the log left out here …]\n${tail}`;
  return { text, tokens: encodeText(model, text).length, omittedTokens: omitted };
}
