import { ShieldAlert, ShieldCheck } from "lucide-react";
import type { SubmissionFlags } from "@/lib/submissions/blacklist-monitor";

/**
 * What the blacklist monitor found in the agent's log: a warning with each matching line (its
 * number, the text, the blacklist entry it hit), or a quiet note that the log was scanned clean.
 * Nothing when no log came with the submission.
 */
export function SubmissionFlagsPanel({ flags }: { flags: SubmissionFlags | null }) {
  if (!flags) return null;
  const scan = flags.blacklist;
  if (scan.totalHits === 0) {
    return (
      <p className="flex items-center gap-1.5 text-sm text-zinc-600" data-testid="blacklist-clean">
        <ShieldCheck size={14} aria-hidden className="text-emerald-600" />
        {scan.rules.length === 0
          ? `The agent's log (${scan.log}) was read; the paper blacklists no site.`
          : `The agent's log (${scan.log}, ${scan.lines} lines) names none of the paper's ${scan.rules.length} blacklisted ${scan.rules.length === 1 ? "site" : "sites"}.`}
      </p>
    );
  }
  const more = scan.totalHits - scan.hits.length;
  return (
    <section
      role="alert"
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
      data-testid="blacklist-flag"
    >
      <h2 className="flex items-center gap-1.5 font-semibold">
        <ShieldAlert size={16} aria-hidden />
        Flagged: the agent&apos;s log names a blacklisted site on {scan.totalHits}{" "}
        {scan.totalHits === 1 ? "line" : "lines"}
      </h2>
      <p className="text-amber-900">
        PaperBench lets an agent browse the web but not its paper&apos;s blacklisted sites. An evaluation counts this
        run as 0 or excludes it, as its policy says. From <code>{scan.log}</code>:
      </p>
      <ol className="max-h-72 space-y-1 overflow-auto rounded bg-white/70 p-2 font-mono text-xs">
        {scan.hits.map((hit) => (
          <li key={hit.line} className="flex gap-2" data-testid="blacklist-hit">
            <span className="w-12 shrink-0 text-right text-zinc-500">{hit.line}</span>
            <span className="min-w-0 flex-1 break-all">{hit.text}</span>
            <span className="shrink-0 text-amber-800" title="blacklist entry">
              {hit.rule}
            </span>
          </li>
        ))}
      </ol>
      {more > 0 && (
        <p className="text-xs text-amber-800">
          and {more} more {more === 1 ? "line" : "lines"} not kept
        </p>
      )}
    </section>
  );
}
