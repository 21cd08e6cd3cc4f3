/**
 * `reproduce.log` and the paper as the judge reads them. PaperBench reads the log's first 200,000
 * characters, reduces them (drain3 clusters of similar lines), then cuts the log to half the
 * context window, and the log and then the paper further while both leave less than 5k tokens
 * (`SimpleJudge._truncate_input`). Efficient mode shows exactly that text, so it never shows fewer
 * log lines than paperbench mode, and then the log's end past it (final metrics are printed last,
 * where PaperBench's head may not reach), within a small bound.
 */
import { decodeTokens, encodeText } from "./budget";
import { firstCodePoints, PAPERBENCH_MAX_CHARS, pythonNewlines } from "./judge-file-text";
import { reduceLog as paperbenchReduceLog } from "@/lib/judge/paperbench/reduce-log";

/**
 * Carriage-return rewrites kept at their last state and runs of identical lines collapsed with a
 * count: how the log's end (past PaperBench's head) is shown.
 */
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

/** Python's `tokens[:stop]`, a negative stop counting from the end. */
function pySliceTo(tokens: number[], stop: number): number[] {
  return tokens.slice(0, stop < 0 ? Math.max(0, tokens.length + stop) : stop);
}

export interface PaperbenchContext {
  /** The paper as PaperBench shows it (cut only when paper and log overflow the window). */
  paper: string;
  paperTokens: number;
  /** The log as PaperBench shows it, or null when there is none. */
  log: string | null;
  logTokens: number;
  /** The reduced log past what `log` shows ("" when it shows it all). */
  rest: string;
}

export const PAPERBENCH_NO_LOG = "(Does not exist)";

/** `SimpleJudge`'s log and paper: the reduced head of the log, then `_truncate_input`. */
export function paperbenchContext(
  model: string,
  contextWindow: number,
  rawLog: string | null,
  paperText: string,
): PaperbenchContext {
  const read = rawLog === null ? null : pythonNewlines(rawLog);
  const head = read === null ? null : firstCodePoints(read, PAPERBENCH_MAX_CHARS);
  const reduced = head === null ? null : paperbenchReduceLog(head);
  // A missing log is "(Does not exist)" to PaperBench, counted like one.
  let logTokens = encodeText(model, reduced ?? PAPERBENCH_NO_LOG);
  let paperTokens = encodeText(model, paperText);
  logTokens = logTokens.slice(0, Math.floor(contextWindow / 2));
  let avail = contextWindow - (logTokens.length + paperTokens.length);
  if (avail < 0) logTokens = pySliceTo(logTokens, avail - 5000);
  avail = contextWindow - (logTokens.length + paperTokens.length);
  if (avail < 0) paperTokens = pySliceTo(paperTokens, avail - 5000);
  const log = reduced === null ? null : decodeTokens(model, logTokens);
  let rest = reduced !== null && log !== null && reduced.startsWith(log) ? reduced.slice(log.length) : "";
  // The log past PaperBench's 200,000 characters, reduced the studio's way (its last part is what counts).
  if (read !== null && head !== null && read.length > head.length)
    rest += "\n" + reduceLog(rawLog!.slice(Math.max(head.length, rawLog!.length - 4 * PAPERBENCH_MAX_CHARS)));
  return {
    paper: decodeTokens(model, paperTokens),
    paperTokens: paperTokens.length,
    log,
    logTokens: logTokens.length,
    rest: rest.trim() === "" ? "" : rest,
  };
}

/** Tokens of the log's end efficient mode adds after PaperBench's head. */
export function logTailTokens(contextWindow: number): number {
  return Math.min(4_000, Math.floor(contextWindow / 32));
}

/**
 * Efficient mode's log: PaperBench's text, then the last lines of what it leaves out (whole lines,
 * at most `maxTailTokens`), after a marker saying so.
 */
export function efficientLog(model: string, pb: PaperbenchContext, maxTailTokens: number): string | null {
  if (pb.log === null) return null;
  if (pb.rest === "" || maxTailTokens <= 0) return pb.log;
  const tokens = encodeText(model, pb.rest);
  if (tokens.length <= maxTailTokens)
    return `${pb.log}\n[… the rest of the log, past what PaperBench reads: …]\n${pb.rest.replace(/^\n+/, "")}`;
  const cut = decodeTokens(model, tokens.slice(tokens.length - maxTailTokens));
  const tail = cut.slice(cut.indexOf("\n") + 1);
  return `${pb.log}\n[… the log goes on past what PaperBench reads; its last lines: …]\n${tail}`;
}
