import Anser from "anser";

/** A run of text in one style, as anser parsed it from the log's ANSI colours. */
export interface LogSegment {
  text: string;
  /** `r, g, b` strings from anser's palette (meant for a dark background), or null. */
  fg: string | null;
  bg: string | null;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  dim: boolean;
}

export interface LogLine {
  segments: LogSegment[];
  /** The line without colours: what search matches against. */
  plain: string;
}

/** The log of one attempt, read chunk by chunk: complete lines, and the line still being written. */
export interface AttemptLog {
  lines: LogLine[];
  /** The text after the last newline (a line not finished yet, a progress bar). */
  partial: string;
  /** Colour state carried from line to line, as a terminal carries it. */
  ansi: Anser;
  lastSeq: number;
}

export function emptyAttemptLog(): AttemptLog {
  return { lines: [], partial: "", ansi: new Anser(), lastSeq: -1 };
}

/**
 * Appends a chunk (a resent one, with a `seq` already read, is ignored). A carriage return
 * inside a line keeps only what follows it, as a terminal shows a progress bar's last state.
 */
export function appendChunk(log: AttemptLog, seq: number, text: string): AttemptLog {
  if (seq <= log.lastSeq) return log;
  const parts = (log.partial + text).split("\n");
  const partial = parts.pop() ?? "";
  const lines = parts.length === 0 ? log.lines : log.lines.concat(parts.map((raw) => parseLine(log.ansi, raw)));
  return { lines, partial, ansi: log.ansi, lastSeq: seq };
}

const CARRY = "\u001b[999m";

function parseLine(ansi: Anser, raw: string): LogLine {
  const text = lastCarriageSegment(raw);
  // anser drops its carried colour on a call's first run of text; an SGR code it ignores carries it.
  const segments = ansi
    .ansiToJson(`${CARRY}${text}`, { remove_empty: true })
    .filter((e) => e.content.length > 0)
    .map((e) => ({
      text: e.content,
      fg: e.fg || null,
      bg: e.bg || null,
      bold: e.decorations.includes("bold"),
      italic: e.decorations.includes("italic"),
      underline: e.decorations.includes("underline"),
      dim: e.decorations.includes("dim"),
    }));
  return { segments, plain: segments.map((s) => s.text).join("") };
}

function lastCarriageSegment(line: string): string {
  const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
  const cut = trimmed.lastIndexOf("\r");
  return cut < 0 ? trimmed : trimmed.slice(cut + 1);
}

/** The line being written, without its colours. */
export function partialLine(log: AttemptLog): LogLine | null {
  if (!log.partial) return null;
  const plain = Anser.ansiToText(lastCarriageSegment(log.partial));
  return {
    plain,
    segments: [{ text: plain, fg: null, bg: null, bold: false, italic: false, underline: false, dim: false }],
  };
}

/** Where `query` occurs (case-insensitive), as line index and column, in order. */
export function findMatches(lines: readonly LogLine[], query: string): { line: number; start: number }[] {
  const needle = query.toLowerCase();
  if (!needle) return [];
  const out: { line: number; start: number }[] = [];
  lines.forEach((l, i) => {
    const hay = l.plain.toLowerCase();
    for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length))
      out.push({ line: i, start: at });
  });
  return out;
}
