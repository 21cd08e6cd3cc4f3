"use client";

import { BadgeCheck } from "lucide-react";
import { Fragment, useState } from "react";
import { formatMeanSe, plural } from "@/lib/leaderboard/format";
import type { LeaderboardAgentRow, LeaderboardView } from "@/lib/leaderboard/types";
import { AgentBreakdown } from "./agent-breakdown";
import { LeaderboardChart } from "./leaderboard-chart";
import { LeaderboardControls } from "./leaderboard-controls";
import { PendingReviewNote } from "./pending-review-note";

/**
 * The leaderboard of one split and variant: controls, the chart with error bars, and the table of
 * agents, each row opening its per-paper breakdown (and, for signed-in members, its gradings).
 */
export function LeaderboardBoard({ view, signedIn, problem }: { view: LeaderboardView; signedIn: boolean; problem: string | null }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const ranked = view.agents.filter((a) => a.nRuns > 0);
  const split = view.splits.find((s) => s.name === view.split);
  const toggle = (agentId: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(agentId)) next.delete(agentId);
      else next.add(agentId);
      return next;
    });

  return (
    <section className="space-y-5" data-testid="leaderboard">
      <header className="flex flex-wrap items-end gap-4">
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-semibold">Leaderboard</h1>
          <p className="mt-1 max-w-3xl text-sm text-zinc-600">
            Replication score per agent: the mean over its runs of a run&apos;s mean score over the papers of the split, ± the
            standard error over runs. Only runs that graded every paper of the split count.
          </p>
        </div>
        <LeaderboardControls view={view} />
      </header>

      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="leaderboard-problem">
          {problem}. Showing the default split instead.
        </p>
      )}

      <div className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-zinc-600" data-testid="leaderboard-summary">
        <span>
          Split <strong className="font-medium text-zinc-900" data-testid="current-split">{view.split}</strong>
          {split && (
            <>
              {" "}
              ({plural(split.paperCount, "paper")}
              {split.gradedPaperCount < split.paperCount && `, ${split.gradedPaperCount} graded in this variant`})
            </>
          )}
        </span>
        <span>
          Variant <strong className="font-medium text-zinc-900" data-testid="current-variant">{view.variant === "code-dev" ? "Code-Dev" : "full"}</strong>
        </span>
        <span>{plural(ranked.length, "ranked agent")}</span>
        {view.latestGradingAt && <span>latest grading {new Date(view.latestGradingAt).toISOString().slice(0, 10)}</span>}
      </div>

      {view.excluded.runs > 0 && (
        <p className="rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700" data-testid="excluded-summary">
          <strong className="font-medium">{plural(view.excluded.runs, "run")} left out</strong>:{" "}
          {[
            view.excluded.incomplete > 0 && `${view.excluded.incomplete} did not grade every paper of the split`,
            view.excluded.duplicatePapers > 0 && `${view.excluded.duplicatePapers} graded a paper more than once`,
            view.excluded.pendingReview > 0 && `${view.excluded.pendingReview} pending review`,
          ]
            .filter(Boolean)
            .join("; ")}
          . Open an agent&apos;s breakdown to see which runs and papers.
        </p>
      )}
      {view.agents.some((a) => a.perPaper.some((p) => p.pendingRuns > 0)) && <PendingReviewNote />}

      {view.agents.length === 0 ? (
        <div className="rounded-lg border border-dashed border-zinc-300 bg-white p-10 text-center text-zinc-600" data-testid="leaderboard-empty">
          No agent has graded runs on the papers of this split{view.variant === "code-dev" ? " in the Code-Dev variant" : ""} yet.
        </div>
      ) : (
        <>
          {ranked.length > 0 && <LeaderboardChart agents={ranked} />}
          <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
            <table className="w-full text-sm" data-testid="leaderboard-table">
              <thead className="border-b border-zinc-200 bg-zinc-50 text-left text-xs uppercase tracking-wide text-zinc-500">
                <tr>
                  <th className="w-12 px-3 py-2 text-right">#</th>
                  <th className="px-3 py-2">Agent</th>
                  <th className="px-3 py-2 text-right">Score</th>
                  <th className="px-3 py-2 text-right">Runs</th>
                  <th className="px-3 py-2">Judge</th>
                  <th className="px-3 py-2" />
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {view.agents.map((agent) => (
                  <Fragment key={agent.agentId}>
                    <AgentRow agent={agent} open={open.has(agent.agentId)} onToggle={() => toggle(agent.agentId)} />
                    {open.has(agent.agentId) && (
                      <tr data-testid="agent-breakdown-row">
                        <td colSpan={6} className="bg-zinc-50 px-4 py-4">
                          <AgentBreakdown agent={agent} view={view} signedIn={signedIn} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {!signedIn && (
        <p className="text-xs text-zinc-500">
          Scores only: rubrics and the judge&apos;s explanations are confidential. Members sign in to open the gradings of their papers.
        </p>
      )}
    </section>
  );
}

function AgentRow({ agent, open, onToggle }: { agent: LeaderboardAgentRow; open: boolean; onToggle: () => void }) {
  const detail = [agent.scaffold, agent.model].filter(Boolean).join(" · ");
  return (
    <tr data-testid="leaderboard-row" data-agent={agent.name} className={agent.nRuns === 0 ? "text-zinc-500" : ""}>
      <td className="px-3 py-2 text-right tabular-nums text-zinc-500">{agent.rank ?? "—"}</td>
      <td className="px-3 py-2">
        <div className="flex items-center gap-2">
          <span className="font-medium text-zinc-900" data-testid="agent-name">
            {agent.name}
          </span>
          {agent.humanReviewed && (
            <span
              className="inline-flex items-center gap-1 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-700"
              title="A human reviewed every grading counted in this row"
              data-testid="human-reviewed-badge"
            >
              <BadgeCheck className="h-3.5 w-3.5" aria-hidden />
              human-reviewed
            </span>
          )}
        </div>
        {detail && detail !== agent.name && <div className="text-xs text-zinc-500">{detail}</div>}
      </td>
      <td className="px-3 py-2 text-right font-medium tabular-nums" data-testid="agent-score">
        {agent.nRuns > 0 ? formatMeanSe(agent.mean, agent.stdErr) : agent.excludedRuns.some((x) => x.reason === "pending_review") ? "pending review" : "no complete run"}
      </td>
      <td className="px-3 py-2 text-right tabular-nums">
        {agent.nRuns}
        {agent.excludedRuns.length > 0 && (
          <span className="ml-1 text-xs text-amber-700" title={agent.excludedRuns.map((x) => `run ${x.run}: ${x.message}`).join("\n")}>
            +{agent.excludedRuns.length} left out
          </span>
        )}
      </td>
      <td className="px-3 py-2 font-mono text-xs text-zinc-600">{agent.judgeModels.join(", ") || "—"}</td>
      <td className="px-3 py-2 text-right">
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={open}
          className="rounded px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50"
          data-testid="toggle-breakdown"
        >
          {open ? "Hide" : "Breakdown"}
        </button>
      </td>
    </tr>
  );
}
