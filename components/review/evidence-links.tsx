"use client";

import { useQuery } from "@tanstack/react-query";
import { FileSearch, FileX } from "lucide-react";
import { fetchJson } from "@/components/api/client";
import { evidenceOf } from "@/lib/judge/evidence";

/** The verdict's evidence: each a link that opens the file at its lines in the submission pane; a path the submission lacks says so. */
export function EvidenceLinks({
  judgeMetadata,
  filesUrl,
  onOpen,
}: {
  judgeMetadata: unknown;
  filesUrl: string;
  onOpen(path: string, startLine: number, endLine: number): void;
}) {
  const evidence = evidenceOf(judgeMetadata);
  // The same listing the submission pane reads (one request for both).
  const listing = useQuery({
    queryKey: ["submission-files", filesUrl],
    queryFn: () => fetchJson<{ files: { path: string }[]; hasReproduceLog: boolean }>(filesUrl),
    staleTime: Infinity,
    enabled: evidence.length > 0,
  });
  if (evidence.length === 0) return null;
  const exists = (path: string) =>
    path === "reproduce.log" ? listing.data?.hasReproduceLog : listing.data?.files.some((f) => f.path === path);
  return (
    <section className="space-y-1.5" data-testid="leaf-evidence">
      <h3 className="text-[11px] font-semibold uppercase tracking-wide text-zinc-500">Evidence</h3>
      <ul className="space-y-1 text-sm">
        {evidence.map((e, i) => {
          const label = `${e.path}:${e.start_line}${e.end_line !== e.start_line ? `–${e.end_line}` : ""}`;
          const missing = listing.data !== undefined && !exists(e.path);
          return (
            <li key={i}>
              {missing ? (
                <span
                  className="inline-flex items-center gap-1.5 font-mono text-xs text-zinc-500"
                  data-testid="evidence-missing"
                  title="The judge cited a file the submission does not have"
                >
                  <FileX size={13} aria-hidden /> {label} <span className="font-sans">(not in the submission)</span>
                </span>
              ) : (
                <button
                  type="button"
                  onClick={() => onOpen(e.path, e.start_line, e.end_line)}
                  className="inline-flex items-center gap-1.5 font-mono text-xs text-indigo-700 hover:underline"
                  data-testid="evidence-link"
                >
                  <FileSearch size={13} aria-hidden /> {label}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
