import { memo, type CSSProperties, type ReactNode } from "react";
import type { LogLine, LogSegment } from "./log-model";

/** One line of the log with its colours, and the search matches in it marked (`current`: the one jumped to). */
export const LogLineView = memo(function LogLineView({
  line,
  number,
  matchStarts,
  matchLength,
  current,
}: {
  line: LogLine;
  number: number;
  matchStarts: readonly number[] | undefined;
  matchLength: number;
  current: number | null;
}) {
  return (
    <div className="flex hover:bg-white/5" data-line={number}>
      <span className="w-12 shrink-0 select-none pr-3 text-right text-zinc-600" aria-hidden>
        {number}
      </span>
      <span className="min-w-0 flex-1 whitespace-pre-wrap break-all">
        {matchStarts?.length
          ? markMatches(line.segments, matchStarts, matchLength, current)
          : line.segments.map((s, i) => styled(s, s.text, i))}
      </span>
    </div>
  );
});

function styleOf(s: LogSegment): CSSProperties | undefined {
  if (!s.fg && !s.bg && !s.bold && !s.italic && !s.underline && !s.dim) return undefined;
  return {
    color: s.fg ? `rgb(${s.fg})` : undefined,
    backgroundColor: s.bg ? `rgb(${s.bg})` : undefined,
    fontWeight: s.bold ? 600 : undefined,
    fontStyle: s.italic ? "italic" : undefined,
    textDecoration: s.underline ? "underline" : undefined,
    opacity: s.dim ? 0.7 : undefined,
  };
}

// React escapes the text: a log's `<script>` stays text.
function styled(s: LogSegment, text: string, key: number | string): ReactNode {
  const style = styleOf(s);
  return style ? (
    <span key={key} style={style}>
      {text}
    </span>
  ) : (
    <span key={key}>{text}</span>
  );
}

/** The segments cut at the matches' edges, each match in a <mark>. */
function markMatches(
  segments: readonly LogSegment[],
  starts: readonly number[],
  length: number,
  current: number | null,
): ReactNode[] {
  const out: ReactNode[] = [];
  let offset = 0;
  let key = 0;
  for (const s of segments) {
    const end = offset + s.text.length;
    let at = offset;
    while (at < end) {
      const match = starts.find((m) => m + length > at && m < end);
      if (match === undefined || match >= end) {
        out.push(styled(s, s.text.slice(at - offset), key++));
        break;
      }
      if (match > at) out.push(styled(s, s.text.slice(at - offset, match - offset), key++));
      const from = Math.max(match, at);
      const to = Math.min(match + length, end);
      out.push(
        <mark
          key={key++}
          data-match={match === current ? "current" : "match"}
          className={
            match === current ? "rounded-sm bg-amber-400 text-zinc-950" : "rounded-sm bg-amber-200/70 text-zinc-950"
          }
        >
          {s.text.slice(from - offset, to - offset)}
        </mark>,
      );
      at = to;
    }
    offset = end;
  }
  return out;
}
