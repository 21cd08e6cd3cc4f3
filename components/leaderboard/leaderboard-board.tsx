"use client";

import { BadgeCheck } from "lucide-react";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { Fragment, useCallback, useMemo, type ReactNode } from "react";
import { formatMeanSe, formatPercent, plural, rankedScoreDigits } from "@/lib/leaderboard/format";
import { leaderboardHref, parseOpenAgents } from "@/lib/leaderboard/query";
import type { LeaderboardPageView, LeaderboardRowSummary } from "@/lib/leaderboard/page-view";
import { AgentBreakdown } from "./agent-breakdown";
import { LeaderboardChart } from "./leaderboard-chart";
import { LeaderboardControls } from "./leaderboard-controls";
import { PendingReviewNote } from "./pending-review-note";
import { AgreementBadge, BasisLine, HumanBaselineBadge, MethodBadge } from "./row-badges";

const COLUMNS = 6;

/**
 * The leaderboard of one split and variant, or of one paper (the per-paper board): controls, the
 * chart with error bars, the table of ranked agents and, below it, the agents without a complete
 * run with their coverage, unranked. Each row opens its breakdown (and, for signed-in members, its
 * gradings). Which breakdowns are open is in the URL (`open`), so back, forward and reload keep it.
 */
export function LeaderboardBoard({
  view,
  signedIn,
  problem,
}: {
  view: LeaderboardPageView;
  signedIn: boolean;
  problem: string | null;
}) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const open = useMemo(() => new Set(parseOpenAgents(searchParams)), [searchParams]);
  // A human baseline with a score sits among the ranked, in its place by score, without a rank.
  // A placeholder judge's rows (members only) apart, below: never ranked, never public.
  const placeholder = view.agents.filter(isPlaceholder);
  const ranked = view.agents.filter((a) => isScored(a) && !isPlaceholder(a));
  const unranked = view.agents.filter((a) => !isScored(a) && !isPlaceholder(a));
  const split = view.splits.find((s) => s.name === view.split);
  // Rows of different rank never read the same score (an extra decimal where two round alike).
  const digits = rankedScoreDigits(ranked);
  const paper = view.paper;
  // Page state only: a history entry of its own (back closes it again), no server round trip.
  const toggle = useCallback(
    (agentId: string) => {
      const next = new Set(open);
      if (next.has(agentId)) next.delete(agentId);
      else next.add(agentId);
      const href = leaderboardHref(pathname, {
        split: view.split,
        variant: view.variant,
        paper: paper?.id ?? null,
        open: [...next],
      });
      window.history.pushState(null, "", href);
    },
    [open, pathname, view.split, view.variant, paper],
  );
  const splitHref = leaderboardHref(pathname, { split: view.split, variant: view.variant, paper: null, open: [] });
  const paperHref = (paperId: string) =>
    leaderboardHref(pathname, { split: view.split, variant: view.variant, paper: paperId, open: [] });

  const rows = (agents: LeaderboardRowSummary[]) =>
    agents.map((agent) => (
      // An agent may have a row among the public's and one apart (a placeholder judge's runs).
      <Fragment key={`${agent.agentId}:${agent.method.kind === "placeholder"}`}>
        <AgentRow agent={agent} digits={digits} open={open.has(agent.agentId)} onToggle={() => toggle(agent.agentId)} />
        {open.has(agent.agentId) && (
          <tr data-testid="agent-breakdown-row">
            <td colSpan={COLUMNS} className="bg-zinc-50 px-4 py-4">
              <AgentBreakdown agent={agent} view={view} signedIn={signedIn} paperHref={paper ? null : paperHref} />
            </td>
          </tr>
        )}
      </Fragment>
    ));

  return (
    <section className="space-y-5" data-testid="leaderboard">
      <header className="flex flex-wrap items-end gap-4">
        {/* The controls go below the text when both do not fit side by side (1024 px). */}
        <div className="min-w-0 flex-1 basis-[28rem]">
          {paper ? (
            <>
              <Link href={splitHref} className="text-sm text-indigo-700 hover:underline" data-testid="back-to-split">
                ← Leaderboard of {view.split}
              </Link>
              <h1 className="mt-1 text-2xl font-semibold" data-testid="paper-board-title">
                {paper.title ?? paper.id}{" "}
                <span className="font-mono text-base font-normal text-zinc-500">{paper.id}</span>
              </h1>
              <p className="mt-1 max-w-3xl text-sm text-zinc-600">
                Every agent&apos;s runs on this paper: the mean score over the runs that graded it, ± the standard error
                over runs.
              </p>
            </>
          ) : (
            <>
              <h1 className="text-2xl font-semibold">Leaderboard</h1>
              <p className="mt-1 max-w-3xl text-sm text-zinc-600">
                Replication score per agent: the mean over its runs of a run&apos;s mean score over the papers of the
                split, ± the standard error over runs. Only runs that graded every paper of the split are ranked; agents
                without one are listed below the ranking with the papers they have.
              </p>
            </>
          )}
        </div>
        <LeaderboardControls view={view} />
      </header>

      {problem && (
        <p
          role="alert"
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="leaderboard-problem"
        >
          {problem}
        </p>
      )}

      <div className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-zinc-600" data-testid="leaderboard-summary">
        {paper ? (
          <span>
            Paper{" "}
            <strong className="font-medium text-zinc-900" data-testid="current-paper">
              {paper.id}
            </strong>
          </span>
        ) : (
          <span>
            Split{" "}
            <strong className="font-medium text-zinc-900" data-testid="current-split">
              {view.split}
            </strong>
            {split && (
              <>
                {" "}
                ({plural(split.paperCount, "paper")}
                {split.gradedPaperCount < split.paperCount && `, ${split.gradedPaperCount} graded in this variant`})
              </>
            )}
          </span>
        )}
        <span>
          Variant{" "}
          <strong className="font-medium text-zinc-900" data-testid="current-variant">
            {view.variant === "code-dev" ? "Code-Dev" : "full"}
          </strong>
        </span>
        <span data-testid="ranked-count">{plural(ranked.length, "ranked agent")}</span>
        {unranked.length > 0 && <span data-testid="unranked-count">{plural(unranked.length, "agent")} not ranked</span>}
        {view.latestGradingAt && (
          <span>latest grading {new Date(view.latestGradingAt).toISOString().slice(0, 10)}</span>
        )}
      </div>

      {view.excluded.runs > 0 && (
        <p
          className="rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700"
          data-testid="excluded-summary"
        >
          <strong className="font-medium">{plural(view.excluded.runs, "run")} left out of the means</strong>:{" "}
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
      {view.agents.some((a) => a.hasPendingPapers) && <PendingReviewNote />}
      {view.agents.some((a) => a.isDemo) && (
        <p
          className="rounded-md border border-violet-200 bg-violet-50 px-3 py-2 text-sm text-violet-900"
          data-testid="leaderboard-demo-note"
        >
          Agents marked <DemoBadge /> are the demo&apos;s: their gradings are synthetic, not results of a real agent.
        </p>
      )}

      {view.agents.length === 0 ? (
        <div
          className="rounded-lg border border-dashed border-zinc-300 bg-white p-10 text-center text-zinc-600"
          data-testid="leaderboard-empty"
        >
          No agent has graded runs on {paper ? "this paper" : "the papers of this split"}
          {view.variant === "code-dev" ? " in the Code-Dev variant" : ""} yet.
          {view.placeholderHidden > 0 && (
            <p className="mt-2 text-sm" data-testid="leaderboard-placeholder-hidden">
              {plural(view.placeholderHidden, "grading")} by a placeholder judge (Dummy or Random){" "}
              {view.placeholderHidden === 1 ? "is" : "are"} not published: placeholder scores say nothing about a
              submission. Judge with a model judge to rank here.
            </p>
          )}
        </div>
      ) : (
        <>
          {ranked.length > 0 && <LeaderboardChart agents={ranked} digits={digits} />}
          {ranked.length > 0 && (
            <AgentTable testId="leaderboard-table" scoreLabel="Score" runsLabel="Runs">
              {rows(ranked)}
            </AgentTable>
          )}
          {unranked.length > 0 && (
            <div className="space-y-2" data-testid="unranked-section">
              <div>
                <h2 className="text-base font-semibold text-zinc-900">
                  Not ranked: no complete run{paper ? "" : " on this split"}
                </h2>
                <p className="max-w-3xl text-sm text-zinc-600">
                  {paper
                    ? "These agents' runs on this paper are pending review: their scores are not published yet."
                    : `These agents have runs, but none graded every paper of the split. Each is shown with the papers its runs cover and the mean over those papers only: not comparable with ${ranked.length > 0 ? "the ranked scores above" : "a ranked score"}.`}
                </p>
              </div>
              <AgentTable testId="unranked-table" scoreLabel="Partial mean" runsLabel="Runs" unranked>
                {rows(unranked)}
              </AgentTable>
            </div>
          )}
        </>
      )}
      {placeholder.length > 0 && (
        <div className="space-y-2" data-testid="placeholder-section">
          <div>
            <h2 className="text-base font-semibold text-zinc-900">Placeholder judges: members only, not public</h2>
            <p className="max-w-3xl text-sm text-zinc-600">
              Graded (at least in part) by the Dummy or Random judge, whose scores say nothing about a submission.
              Signed-in members see these rows; the public leaderboard, its API and every public figure leave them out.
            </p>
          </div>
          <AgentTable testId="placeholder-table" scoreLabel="Placeholder score" runsLabel="Runs">
            {rows(placeholder)}
          </AgentTable>
        </div>
      )}
      {!signedIn && (
        <p className="text-xs text-zinc-500">
          Scores only: rubrics and the judge&apos;s explanations are confidential. Members sign in to open the gradings
          of their papers.
        </p>
      )}
    </section>
  );
}

function AgentTable({
  testId,
  scoreLabel,
  runsLabel,
  unranked = false,
  children,
}: {
  testId: string;
  scoreLabel: string;
  runsLabel: string;
  unranked?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      className={`overflow-x-auto rounded-lg border bg-white ${unranked ? "border-dashed border-zinc-300" : "border-zinc-200"}`}
    >
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="border-b border-zinc-200 bg-zinc-50 text-left text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="w-16 whitespace-nowrap px-3 py-2 text-right">{unranked ? "Papers" : "#"}</th>
            <th className="px-3 py-2">Agent</th>
            <th className="px-3 py-2 text-right">{scoreLabel}</th>
            <th className="px-3 py-2 text-right">{runsLabel}</th>
            <th className="px-3 py-2">Judge</th>
            <th className="px-3 py-2" />
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">{children}</tbody>
      </table>
    </div>
  );
}

/** The mark of synthetic results: an agent of the demo seed. */
function DemoBadge() {
  return (
    <span
      className="inline-flex items-center rounded bg-violet-100 px-1.5 py-0.5 text-xs font-medium text-violet-800"
      title="Demo agent: synthetic gradings, not a real agent's results"
      data-testid="demo-badge"
    >
      demo
    </span>
  );
}

const isPlaceholder = (a: LeaderboardRowSummary) => a.method.kind === "placeholder";

/** Shown with a score among the ranked: a ranked agent, or a human baseline with a score. */
const isScored = (a: LeaderboardRowSummary) => a.rank !== null || (a.isHuman && a.mean !== null);

function AgentRow({
  agent,
  digits,
  open,
  onToggle,
}: {
  agent: LeaderboardRowSummary;
  digits: number;
  open: boolean;
  onToggle: () => void;
}) {
  // Scaffold and model under the name, unless the name already says them ("Demo BasicAgent · o1").
  const detail = [agent.scaffold, agent.model]
    .filter((part): part is string => !!part && !agent.name.includes(part))
    .join(" · ");
  const ranked = isScored(agent) || (isPlaceholder(agent) && agent.mean !== null);
  const pending = agent.excludedRuns.some((x) => x.reason === "pending_review");
  const coverage = `${agent.coverage.papers}/${agent.coverage.of} ${agent.coverage.of === 1 ? "paper" : "papers"}`;
  return (
    <tr
      data-testid="leaderboard-row"
      data-agent={agent.name}
      data-ranked={agent.rank !== null}
      data-human={agent.isHuman}
      className={ranked ? "" : "text-zinc-600"}
    >
      <td
        className="whitespace-nowrap px-3 py-2 text-right tabular-nums text-zinc-500"
        data-testid={ranked ? "agent-rank" : "agent-coverage"}
      >
        {ranked ? (agent.rank ?? "—") : coverage}
      </td>
      <td className="px-3 py-2">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-zinc-900" data-testid="agent-name">
            {agent.name}
          </span>
          {agent.isDemo && <DemoBadge />}
          {agent.isHuman && <HumanBaselineBadge />}
          <MethodBadge method={agent.method} />
          {agent.agreement && <AgreementBadge agreement={agent.agreement} />}
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
        {detail && (
          <div className="text-xs text-zinc-500" data-testid="agent-detail">
            {detail}
          </div>
        )}
        <BasisLine agent={agent} />
      </td>
      <td className="whitespace-nowrap px-3 py-2 text-right font-medium tabular-nums" data-testid="agent-score">
        {ranked ? (
          formatMeanSe(agent.mean, agent.stdErr, digits)
        ) : pending ? (
          "pending review"
        ) : (
          <span title={`Mean over the ${coverage} its runs graded; no run graded every paper of the split`}>
            {formatPercent(agent.coverage.mean)}
            <span className="ml-1 text-xs font-normal text-zinc-500">partial</span>
          </span>
        )}
      </td>
      <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
        {ranked && agent.nRuns}
        {agent.excludedRuns.length > 0 && (
          <span
            className="ml-1 text-xs text-amber-700"
            title={agent.excludedRuns.map((x) => `run ${x.run}: ${x.message}`).join("\n")}
          >
            {ranked ? "+" : ""}
            {agent.excludedRuns.length} left out
          </span>
        )}
      </td>
      <td className="whitespace-nowrap px-3 py-2 font-mono text-xs text-zinc-600">
        {agent.judgeModels.join(", ") || "—"}
      </td>
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
