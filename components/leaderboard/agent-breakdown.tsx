"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchJson } from "@/components/api/client";
import { formatMeanSe, formatPercent, plural } from "@/lib/leaderboard/format";
import {
  sameRow,
  type LeaderboardPageView,
  type LeaderboardRowDetail,
  type LeaderboardRowSummary,
} from "@/lib/leaderboard/page-view";
import type { LeaderboardAgentGradings, LeaderboardView } from "@/lib/leaderboard/types";
import { EvaluationSetup } from "./evaluation-setup";
import { PendingReviewNote } from "./pending-review-note";

/**
 * The row's breakdown: sent with the page when the row was open in its URL, else read from the
 * board's API (one request for every row of the board: the answer is cached on both sides).
 */
function useRowDetail(agent: LeaderboardRowSummary, view: LeaderboardPageView) {
  const query = new URLSearchParams({
    split: view.split,
    variant: view.variant,
    ...(view.paper ? { paper: view.paper.id } : {}),
  });
  const board = useQuery({
    queryKey: ["leaderboard-board", view.split, view.variant, view.paper?.id ?? null],
    queryFn: () => fetchJson<LeaderboardView>(`/api/leaderboard?${query}`),
    enabled: agent.detail === null,
    staleTime: Infinity,
  });
  if (agent.detail) return { detail: agent.detail, error: null };
  const row = board.data?.agents.find((a) => sameRow(a, agent));
  const detail: LeaderboardRowDetail | null = row ? { runs: row.runs, perPaper: row.perPaper } : null;
  const error = board.isError
    ? board.error.message
    : board.data && !row
      ? "This agent is no longer on the board: reload the page"
      : null;
  return { detail, error };
}

/**
 * One agent's row opened: per paper of the board the mean ± standard error over the runs that
 * graded it (each paper leading to its per-paper board, `paperHref`), each complete run's score,
 * the runs left out and why, and for a signed-in member the gradings of their papers.
 */
export function AgentBreakdown({
  agent,
  view,
  signedIn,
  paperHref,
}: {
  agent: LeaderboardRowSummary;
  view: LeaderboardPageView;
  signedIn: boolean;
  /** The per-paper board of a paper; null on a per-paper board. */
  paperHref: ((paperId: string) => string) | null;
}) {
  const titles = new Map(view.papers.map((p) => [p.id, p.title]));
  const gradings = useQuery({
    queryKey: ["leaderboard-runs", agent.agentId, view.split, view.variant, view.paper?.id ?? null],
    queryFn: () =>
      fetchJson<LeaderboardAgentGradings>(
        `/api/leaderboard/runs?${new URLSearchParams({ agent: agent.agentId, split: view.split, variant: view.variant, ...(view.paper ? { paper: view.paper.id } : {}) })}`,
      ),
    enabled: signedIn,
  });
  const { detail, error } = useRowDetail(agent, view);
  const byPaper = new Map(gradings.data?.papers.map((p) => [p.paperId, p.runs]));
  // Only papers someone graded in this variant have a board worth opening.
  const graded = new Set(view.gradedPapers.map((p) => p.id));

  return (
    <div className="space-y-4" data-testid="agent-breakdown">
      {agent.basis.kind === "evaluation" && <EvaluationSetup basis={agent.basis} />}
      {agent.rank === null && !agent.isHuman && agent.coverage.papers > 0 && (
        <p className="text-sm text-zinc-700" data-testid="coverage-note">
          <span className="font-medium">Not ranked:</span> no run graded every paper of the split. Its runs cover{" "}
          {agent.coverage.papers} of {plural(agent.coverage.of, "paper")}; the mean over those papers is{" "}
          {formatPercent(agent.coverage.mean)}.
        </p>
      )}
      {detail === null && (
        <p
          className={`text-sm ${error ? "text-red-700" : "text-zinc-500"}`}
          data-testid="breakdown-loading"
          role={error ? "alert" : "status"}
        >
          {error ? `Could not load the breakdown: ${error}` : "Loading the breakdown…"}
        </p>
      )}
      {detail && detail.runs.length > 0 && (
        <p className="text-sm text-zinc-700">
          <span className="font-medium">Complete runs:</span>{" "}
          {detail.runs.map((r) => (
            <span key={r.run} className="mr-3 tabular-nums">
              run {r.run}: {formatPercent(r.score)}
            </span>
          ))}
        </p>
      )}
      {agent.excludedRuns.length > 0 && (
        <div
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="excluded-runs"
        >
          <div className="font-medium">{plural(agent.excludedRuns.length, "run")} left out</div>
          <ul className="mt-1 list-disc pl-5">
            {agent.excludedRuns.map((x) => (
              <li key={x.run}>
                run {x.run}: {x.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {agent.hasPendingPapers && <PendingReviewNote />}
      {detail && (
        <table className="w-full text-sm" data-testid="per-paper-table">
          <thead className="text-left text-xs uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="py-1 pr-3">Paper</th>
              <th className="py-1 pr-3 text-right">Mean ± SE</th>
              <th className="py-1 pr-3 text-right">Runs</th>
              {signedIn && <th className="py-1">Gradings</th>}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-200">
            {detail.perPaper.map((p) => {
              const title = titles.get(p.paperId);
              const runs = byPaper.get(p.paperId);
              return (
                <tr key={p.paperId} data-testid="per-paper-row" data-paper={p.paperId}>
                  <td className="py-1.5 pr-3">
                    {paperHref && graded.has(p.paperId) ? (
                      <Link
                        href={paperHref(p.paperId)}
                        className="font-mono text-xs text-indigo-700 hover:underline"
                        data-testid="paper-board-link"
                        title="Every agent's runs on this paper"
                      >
                        {p.paperId}
                      </Link>
                    ) : (
                      <div className="font-mono text-xs text-zinc-800">{p.paperId}</div>
                    )}
                    <div className="text-xs text-zinc-500">{title ?? "not in this studio"}</div>
                  </td>
                  <td className="py-1.5 pr-3 text-right tabular-nums" data-testid="per-paper-score">
                    {p.nRuns === 0 && p.pendingRuns > 0 ? "pending review" : formatMeanSe(p.mean, p.stdErr)}
                  </td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">
                    {p.nRuns}
                    {p.pendingRuns > 0 && (
                      <span className="ml-1 text-xs text-amber-700" data-testid="per-paper-pending">
                        +{p.pendingRuns} pending review
                      </span>
                    )}
                  </td>
                  {signedIn && (
                    <td className="py-1.5">
                      {gradings.isPending ? (
                        <span className="text-xs text-zinc-400">…</span>
                      ) : runs === undefined || runs.length === 0 ? (
                        <span className="text-xs text-zinc-400">
                          {gradings.isError
                            ? "could not load"
                            : runs === undefined
                              ? "not a member"
                              : "none you can open"}
                        </span>
                      ) : (
                        <span className="flex flex-wrap gap-1.5">
                          {runs.map((r) => (
                            <Link
                              key={r.gradingId}
                              href={`/gradings/${r.gradingId}`}
                              className="rounded border border-zinc-200 bg-white px-1.5 py-0.5 text-xs tabular-nums text-indigo-700 hover:border-indigo-300"
                              data-testid="grading-link"
                              title={`${r.kind} grading${r.reviewed ? ", reviewed" : ""}${r.pendingReview ? ", pending review" : ""}`}
                            >
                              run {r.run} · {r.score === null ? "score hidden" : formatPercent(r.score)}
                              {r.pendingReview ? " · pending review" : ""}
                              {r.reviewed ? " ✓" : ""}
                            </Link>
                          ))}
                        </span>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {signedIn && gradings.data && gradings.data.hiddenPapers > 0 && (
        <p className="text-xs text-zinc-500">
          Gradings of {plural(gradings.data.hiddenPapers, "paper")} you are not a member of are not listed.
        </p>
      )}
    </div>
  );
}
