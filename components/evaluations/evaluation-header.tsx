import { Download, Radio, UserRound } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";
import { plural } from "@/lib/leaderboard/format";
import { isPaperbenchDefaultPolicies } from "@/lib/evaluations/default-policies";
import { FAILURE_KINDS, type FailureKind } from "@/lib/evaluations/schemas";
import type { EvaluationMatrix } from "@/lib/evaluations/matrix";
import { EvaluationScoring } from "./evaluation-scoring";
import type { StreamConnection } from "./use-evaluation-stream";

const FAILURE_LABEL: Record<FailureKind, string> = {
  reproduction_failed: "Nothing to judge (reproduction failed)",
  reproduction_timed_out: "Nothing to judge (reproduction timed out)",
  judge_invalid_leaves: "Judge left invalid leaves",
  blacklisted: "Agent's log names a blacklisted site",
};

const CONNECTION: Record<StreamConnection, string> = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  "access-ended": "not following (access ended)",
};

/**
 * Which evaluation this is (agent, split, runs, variant, aggregation, human or not, resources
 * provided, the agent's setup PaperBench asks to report), the policy per failure kind as it reads,
 * the exports and whether the page is following the live feed.
 */
export function EvaluationHeader({ matrix, connection }: { matrix: EvaluationMatrix; connection: StreamConnection }) {
  const e = matrix.evaluation;
  const exportHref = (format: "json" | "csv") => `/api/evaluations/${encodeURIComponent(e.id)}/export?format=${format}`;
  return (
    <header className="space-y-3" data-testid="evaluation-header">
      <nav className="text-sm text-zinc-500">
        <Link href="/evaluations" className="hover:underline">
          Evaluations
        </Link>
      </nav>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-semibold" data-testid="evaluation-title">
          {e.name}
        </h1>
        {e.isHuman && (
          <span
            className="inline-flex items-center gap-1 rounded-full bg-violet-50 px-2 py-0.5 text-xs font-medium text-violet-800 ring-1 ring-inset ring-violet-200"
            data-testid="human-badge"
          >
            <UserRound size={12} aria-hidden /> human baseline
          </span>
        )}
        <span
          className="flex items-center gap-1.5 text-xs text-zinc-500"
          data-testid="evaluation-connection"
          data-connection={connection}
          role="status"
        >
          <Radio size={12} aria-hidden className={connection === "live" ? "text-emerald-500" : "text-zinc-400"} />
          {CONNECTION[connection]}
        </span>
        <div className="ml-auto flex items-center gap-2">
          <a href={exportHref("json")} download className={buttonClass("secondary")} data-testid="export-json">
            <Download size={14} aria-hidden /> Export JSON
          </a>
          <a href={exportHref("csv")} download className={buttonClass("secondary")} data-testid="export-csv">
            <Download size={14} aria-hidden /> Export CSV
          </a>
        </div>
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="evaluation-facts">
        <Fact label="Agent" testId="evaluation-agent">
          {e.agent}
        </Fact>
        <Fact label="Split">
          {e.split === "custom" ? `custom (${plural(matrix.papers.length, "paper")})` : e.split}
        </Fact>
        <Fact label="Runs">{e.runs}</Fact>
        <Fact label="Variant">{e.variant}</Fact>
        <Fact label="Aggregation">{e.aggregation === "best_of_n" ? `best of ${e.runs}` : "mean over runs"}</Fact>
        <Fact label="Judge">{e.judgeConfig?.name ?? "— (ingested gradings)"}</Fact>
        <Fact label="Time limit">{e.setup.time_limit_h === null ? "—" : `${e.setup.time_limit_h} h`}</Fact>
        <Fact label="Hardware">{e.setup.hardware ?? "—"}</Fact>
        <Fact label="Scaffold">{e.setup.scaffold ?? "—"}</Fact>
        <Fact label="Tools">{e.setup.tools ?? "—"}</Fact>
      </dl>
      {e.resourcesProvided && (
        <p
          className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900"
          data-testid="resources-provided"
        >
          Resources provided: datasets and models were handed to the agent, so leaves of &ldquo;Dataset and Model
          Acquisition&rdquo; weigh 0 in every score of this evaluation.
        </p>
      )}
      <EvaluationScoring matrix={matrix} />
      <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm" aria-label="Policies" data-testid="evaluation-policies">
        {FAILURE_KINDS.map((kind) => (
          <li key={kind} data-testid="policy" data-kind={kind}>
            <span className="text-zinc-500">{FAILURE_LABEL[kind]}:</span>{" "}
            <span className="font-medium">{e.policyText[kind]}</span>
          </li>
        ))}
        {isPaperbenchDefaultPolicies(e.policies) && (
          <li className="text-zinc-500" data-testid="policies-paperbench">
            PaperBench&rsquo;s defaults
          </li>
        )}
      </ul>
      <p className="text-xs text-zinc-500" data-testid="policies-note">
        Every reproduction that ran is judged, even one whose reproduce.sh exited non-zero, timed out or was missing, as
        PaperBench judges it: its Code Development criteria can still earn. These policies decide only a cell with
        nothing to judge: the runner failed before reproduce.sh ran, no outputs came back, or the job was cancelled.
        Each cell says how its reproduce.sh ended.
      </p>
    </header>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="font-medium" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
