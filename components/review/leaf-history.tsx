"use client";

import { History } from "lucide-react";
import { HiddenVerdictIcon } from "@/components/ui/hidden-verdict";
import type { ReviewLeafDetail } from "@/lib/review/types";
import { PanelSection as Section } from "./panel-section";
import { formatDuration } from "./score-style";

/** A leaf's overrides and review marks, oldest first. */
export function LeafHistory({ detail }: { detail: ReviewLeafDetail | undefined }) {
  if (!detail) return null;
  type Entry = { at: string; who: string; text: string; reason?: string; kind: "override" | "review"; blind?: boolean };
  // An override a blind score made: its review mark (the one that appended it) says it was blind.
  const blindOverrides = new Set(
    detail.reviews.filter((r) => r.blind && r.overrideId !== null).map((r) => r.overrideId),
  );
  const entries: Entry[] = [
    ...detail.overrides.map((o): Entry => ({
      at: o.createdAt,
      who: o.user?.name ?? o.user?.email ?? "someone",
      text: `overrode ${o.oldScore} → ${o.newScore}`,
      reason: o.reason,
      kind: "override",
      blind: blindOverrides.has(o.id),
    })),
    ...detail.reviews
      .filter((r) => r.overrideId === null)
      .map((r): Entry => ({
        at: r.createdAt,
        who: r.user?.name ?? r.user?.email ?? "someone",
        text: `${r.blind ? "scored blind" : "confirmed"} ${r.score}${r.timeSpentMs ? ` after ${formatDuration(r.timeSpentMs)}` : ""}`,
        kind: "review",
      })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <Section title="History" testId="leaf-history">
      {entries.length === 0 ? (
        <p className="flex items-center gap-1.5 text-sm text-zinc-500">
          <History size={13} aria-hidden /> Nobody has reviewed this leaf yet.
        </p>
      ) : (
        <ol className="space-y-1.5 text-sm">
          {entries.map((e, i) => (
            <li
              key={i}
              className="rounded border border-zinc-100 bg-white px-2 py-1"
              data-testid="history-entry"
              data-kind={e.kind}
            >
              <div className="flex items-baseline gap-1.5">
                <span className="font-medium text-zinc-800">{e.who}</span>
                <span className="text-zinc-700">{e.text}</span>
                {e.blind && (
                  <span
                    className="inline-flex items-center gap-0.5 rounded bg-zinc-100 px-1 text-[10px] font-medium text-zinc-600"
                    data-testid="history-blind"
                  >
                    <HiddenVerdictIcon blind size={10} /> Blind review
                  </span>
                )}
                <time className="ml-auto shrink-0 text-[11px] text-zinc-400" dateTime={e.at}>
                  {new Date(e.at).toLocaleString("en")}
                </time>
              </div>
              {e.reason && <p className="mt-0.5 whitespace-pre-wrap text-xs text-zinc-600">“{e.reason}”</p>}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
