"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type RefObject } from "react";
import { fetchJson } from "@/components/api/client";
import { highlightCode } from "@/components/review/highlight";
import { parseCsvRecords } from "@/lib/evaluations/bulk-manifest";
import { fileKindOf } from "@/lib/files/file-kind";
import type { FileTarget } from "@/lib/judge/evidence";

/** One file as a files route answers `?path=`: its text when kept, else why not; `image`: fetch its bytes with `?image=`. */
export interface FileContent {
  path: string;
  size: number;
  skipped: string | null;
  content: string | null;
  image?: boolean;
}

// ANSI escape sequences (colours, cursor moves) in logs.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
/** Rows of a CSV shown as a table; the rest is left to the download. */
const MAX_TABLE_ROWS = 1_000;

/**
 * One file of a files route, shown by its kind (`lib/files/file-kind.ts`): an image from its bytes
 * (raster types only, served as such), a CSV as a table, JSON pretty-printed, a log as text,
 * anything else highlighted. Text is always rendered as text: an HTML or SVG file shows its source.
 */
export function FileView({ filesUrl, path, lines }: { filesUrl: string; path: string; lines: FileTarget | null }) {
  const file = useQuery({
    queryKey: ["submission-file", filesUrl, path],
    queryFn: () => fetchJson<{ file: FileContent }>(`${filesUrl}?path=${encodeURIComponent(path)}`).then((r) => r.file),
    staleTime: Infinity,
  });
  const kind = fileKindOf(path);
  const content = file.data?.content ?? null;
  const source = kind === "json" && content !== null ? prettyJson(content) : content;
  const highlighted = useHighlighted(kind === "csv" || kind === "log" ? null : source, path);
  const viewRef = useRef<HTMLDivElement>(null);
  useEvidenceLines(viewRef, lines, highlighted ?? source);
  if (file.isPending) return <div className="m-3 h-24 animate-pulse rounded bg-zinc-100" />;
  if (file.isError) return <p className="p-3 text-sm text-red-700">{file.error.message}</p>;
  let body: React.ReactNode;
  if (file.data.image) {
    body = (
      // A submitted file shown as it is, at its own size, from the studio's access-checked route: next/image
      // wants the size up front and would resize the evidence a reviewer is judging.
      // eslint-disable-next-line @next/next/no-img-element -- see above
      <img
        src={`${filesUrl}?image=${encodeURIComponent(path)}`}
        alt={path}
        className="m-3 max-w-[calc(100%-1.5rem)] border border-zinc-200"
        data-testid="file-image"
      />
    );
  } else if (source === null) {
    return <p className="p-3 text-sm text-zinc-500">This file was not kept ({file.data.skipped ?? "binary"}).</p>;
  } else if (kind === "csv") {
    body = <CsvTable text={source} />;
  } else if (kind === "log") {
    body = <PlainLines text={source} log testId="file-log" />;
  } else if (highlighted) {
    // Shiki's output: the code is escaped token by token.
    body = (
      <div
        className="code-view text-[12px]"
        data-testid="highlighted"
        dangerouslySetInnerHTML={{ __html: highlighted }}
      />
    );
  } else {
    // Plain text: a language Shiki is not given, a file too big to highlight, or while (or when)
    // highlighting fails. Its lines are marked as the highlighted ones are.
    body = <PlainLines text={source} />;
  }
  return (
    <div data-testid="file-view" data-path={path} data-kind={file.data.image ? "image" : kind} ref={viewRef}>
      <div className="sticky top-0 z-10 border-b border-zinc-200 bg-white/95 px-3 py-1 font-mono text-[11px] text-zinc-600">
        {path}
      </div>
      {body}
    </div>
  );
}

/** A log, escape sequences stripped, with the lines an evidence link cites marked (the reproduce.log view). */
export function LogLines({ text, lines, testId }: { text: string; lines: FileTarget | null; testId?: string }) {
  const viewRef = useRef<HTMLDivElement>(null);
  useEvidenceLines(viewRef, lines, text);
  return (
    <div ref={viewRef}>
      <PlainLines text={text} log testId={testId} />
    </div>
  );
}

/** Beyond this many lines a plain file is one text node (evidence is not marked in it). */
const MAX_LINE_SPANS = 50_000;

/**
 * Text with one `.line` per line, as Shiki renders code: evidence lines are found the same way in
 * both. A log (`log`) has its escape sequences stripped (which keeps its lines) and wraps.
 */
function PlainLines({ text: raw, log = false, testId }: { text: string; log?: boolean; testId?: string }) {
  const text = log ? raw.replace(ANSI, "") : raw;
  const lines = text.split("\n");
  return (
    <pre
      className={
        log
          ? "code-view whitespace-pre-wrap break-all p-3 font-mono text-[11px] leading-relaxed text-zinc-800"
          : "code-view p-3 font-mono text-[12px] leading-relaxed text-zinc-800"
      }
      data-testid={testId}
    >
      {lines.length > MAX_LINE_SPANS
        ? text
        : lines.map((line, i) => (
            // A file's lines never reorder: the index is the line's identity.
            <span key={i} className="line">
              {i < lines.length - 1 ? `${line}\n` : line}
            </span>
          ))}
    </pre>
  );
}

/** JSON re-indented for reading; as it was when it does not parse. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Shiki's HTML of the text (null while it loads, for a language it does not know, or no text). */
function useHighlighted(text: string | null, path: string): string | null {
  const [html, setHtml] = useState<{ text: string; html: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    if (text === null) return;
    highlightCode(text, path).then(
      (h) => live && setHtml({ text, html: h }),
      () => live && setHtml({ text, html: null }),
    );
    return () => {
      live = false;
    };
  }, [text, path]);
  return html !== null && html.text === text ? html.html : null;
}

/** A CSV as a table: its first record the header (RFC 4180: quoted fields may hold commas and newlines). */
function CsvTable({ text }: { text: string }) {
  const records = parseCsvRecords(text);
  if (!Array.isArray(records)) return <pre className="code-view p-3 font-mono text-[12px] text-zinc-800">{text}</pre>;
  const [header, ...rows] = records.map((r) => r.fields);
  return (
    <div className="overflow-auto p-3">
      <table className="border-collapse text-left font-mono text-xs" data-testid="file-csv-table">
        {header && (
          <thead>
            <tr>
              {header.map((h, i) => (
                <th key={i} className="border border-zinc-200 bg-zinc-50 px-2 py-1 font-semibold text-zinc-700">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rows.slice(0, MAX_TABLE_ROWS).map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c} className="border border-zinc-200 px-2 py-0.5 text-zinc-800">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_TABLE_ROWS && (
        <p className="mt-2 text-xs text-zinc-500">
          The first {MAX_TABLE_ROWS.toLocaleString("en")} of {rows.length.toLocaleString("en")} rows; download the file
          for the rest.
        </p>
      )}
    </div>
  );
}

/**
 * Marks the cited lines of the file shown (one `.line` per line, highlighted or plain) and scrolls
 * to the first; again whenever what is shown changes (`shown`: the highlighted HTML, else the text).
 */
function useEvidenceLines(
  viewRef: RefObject<HTMLDivElement | null>,
  lines: FileTarget | null,
  shown: string | null,
): void {
  useEffect(() => {
    const view = viewRef.current;
    if (!view || !lines || shown === null) return;
    const all = view.querySelectorAll<HTMLElement>(".line");
    const marked: HTMLElement[] = [];
    for (let i = lines.startLine - 1; i < Math.min(lines.endLine, all.length); i++) {
      all[i].dataset.evidence = "true";
      all[i].classList.add("bg-amber-100");
      marked.push(all[i]);
    }
    marked[0]?.scrollIntoView({ block: "center" });
    return () => {
      for (const el of marked) {
        delete el.dataset.evidence;
        el.classList.remove("bg-amber-100");
      }
    };
  }, [viewRef, lines, shown]);
}
