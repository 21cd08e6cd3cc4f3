"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { SubmissionJudgeRunView } from "@/lib/judge/views";
import { formatPercent } from "@/lib/leaderboard/format";
import { formatSeconds, formatTokens, formatUsd } from "./format";

/** One judge run: its score once done, leaves done of total, invalid, tokens, cost so far, ETA; estimate beside actual once ended; Cancel (staff). */
export function JudgeRunCard({
  run,
  canManage,
  queryKey,
}: {
  run: SubmissionJudgeRunView;
  canManage: boolean;
  queryKey: readonly unknown[];
}) {
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => fetchJson(`/api/judge/runs/${run.id}/cancel`, jsonInit("POST", {})),
    onSettled: () => refetchAfterChange(queryClient, queryKey),
  });
  const live = run.status === "queued" || run.status === "running";
  const e = run.estimate;
  return (
    <div
      className="space-y-2 rounded-md border border-zinc-200 bg-white p-3 text-sm"
      data-testid="judge-run"
      data-status={run.status}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-zinc-800">{run.configName}</span>
        <span className="text-xs text-zinc-500">
          {run.variant === "code-dev" ? "Code-Dev" : "full"}
          {run.maxDepth !== null && ` · depth ${run.maxDepth}`}
        </span>
        <JobStatusBadge status={run.status} cancelRequested={run.cancelRequested} testId="judge-run-status" />
        {run.score !== null && (
          <span className="font-semibold tabular-nums text-zinc-900" data-testid="judge-run-score">
            Score {formatPercent(run.score)}
          </span>
        )}
        <Link
          href={`/gradings/${run.gradingId}`}
          className="ml-auto text-xs text-indigo-700 hover:underline"
          data-testid="judge-run-grading"
        >
          Open the grading
        </Link>
        {canManage && live && (
          <Button
            variant="secondary"
            disabled={cancel.isPending || run.cancelRequested}
            onClick={() => cancel.mutate()}
            data-testid="judge-run-cancel"
          >
            Cancel
          </Button>
        )}
      </div>
      <ProgressBar
        value={run.leavesDone}
        total={run.leavesTotal}
        className="h-1.5 bg-zinc-100"
        barClassName="bg-indigo-500"
      />
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600">
        <Figure label="Leaves" value={`${run.leavesDone} / ${run.leavesTotal}`} testId="judge-run-leaves" />
        <Figure label="Invalid" value={String(run.leavesInvalid)} />
        <Figure label="Calls" value={String(run.calls)} />
        <Figure
          label="Tokens in / cached / out"
          value={`${formatTokens(run.inputTokens)} / ${formatTokens(run.cachedInputTokens)} / ${formatTokens(run.outputTokens)}`}
        />
        <Figure label="Cost" value={formatUsd(run.costUsd)} />
        {run.etaS !== null && <Figure label="ETA" value={formatSeconds(run.etaS)} />}
      </dl>
      {run.failureReason && <p className="text-xs text-red-700">{run.failureReason}</p>}
      {e && !live && (
        <p className="text-xs text-zinc-500" data-testid="judge-run-vs-estimate">
          Estimated {e.calls} calls, {formatTokens(e.inputTokens)} tokens in, {formatUsd(e.costUsd)}; took {run.calls}{" "}
          calls, {formatTokens(run.inputTokens)} in, {formatUsd(run.costUsd)}.
        </p>
      )}
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex gap-1">
      <dt>{label}</dt>
      <dd className="font-mono tabular-nums text-zinc-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
