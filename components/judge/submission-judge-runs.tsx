"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import type { Variant } from "@/lib/grading/variant";
import type { SubmissionJudgeRunView } from "@/lib/judge/views";
import { JudgeRunCard } from "./judge-run-card";
import { RunJudgeButton } from "./run-judge-dialog";

/** The submission's judge runs (refreshed every 2 s while one runs) and, for staff, "Run judge". */
export function SubmissionJudgeRuns({
  submissionId,
  variant,
  canManage,
}: {
  submissionId: string;
  variant: Variant;
  canManage: boolean;
}) {
  const queryClient = useQueryClient();
  const queryKey = ["submission-judge-runs", submissionId] as const;
  const runs = useQuery({
    queryKey,
    queryFn: () =>
      fetchJson<{ runs: SubmissionJudgeRunView[] }>(`/api/submissions/${submissionId}/judge-runs`).then((r) => r.runs),
    refetchInterval: (q) =>
      q.state.data?.some((r) => r.status === "queued" || r.status === "running") ? 2_000 : false,
  });
  if (!canManage && !runs.data?.length) return null;
  return (
    <section className="space-y-2" aria-label="Judge runs" data-testid="judge-runs">
      <div className="flex items-center gap-2">
        <h2 className="text-sm font-semibold text-zinc-800">Judge</h2>
        {canManage && (
          <span className="ml-auto">
            <RunJudgeButton
              target={{ submissionIds: [submissionId] }}
              defaultVariant={variant}
              onStarted={() => void refetchAfterChange(queryClient, queryKey)}
            />
          </span>
        )}
      </div>
      {runs.data?.map((run) => (
        <JudgeRunCard key={run.id} run={run} canManage={canManage} queryKey={queryKey} />
      ))}
    </section>
  );
}
