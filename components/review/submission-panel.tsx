"use client";

import { useQuery } from "@tanstack/react-query";
import Anser from "anser";
import { Download, ExternalLink, ScrollText } from "lucide-react";
import { useState } from "react";
import { fetchJson } from "@/components/api/client";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { IntentLink } from "@/components/layout/intent-prefetch";
import { SubmissionFiles } from "@/components/submissions/submission-files";
import { useSubmission } from "@/components/submissions/submission-query";
import { formatDurationS } from "@/lib/jobs/duration";
import type { JobView } from "@/lib/jobs/job-view";
import { describeReproductionEnd, isJudgeableReproduction } from "@/lib/jobs/judge-source";
import type { FileTarget } from "@/lib/judge/evidence";

/** The submission pane of the review page: the run's latest reproduction (when there is one) over its repository. */
export function SubmissionPanel({
  gradingId,
  submissionId,
  target,
}: {
  gradingId: string;
  submissionId: string;
  target?: FileTarget | null;
}) {
  return (
    <div className="flex h-full min-h-0 flex-col">
      <LatestReproduction submissionId={submissionId} />
      <div className="min-h-0 flex-1">
        <SubmissionFiles
          filesUrl={`/api/gradings/${gradingId}/files`}
          target={target}
          empty={
            <>
              <p className="text-sm font-medium text-zinc-700">No files were imported for this submission</p>
              <p className="max-w-xs text-xs text-zinc-500">
                The grading was imported without the submitted repository. Staff can attach its archive with{" "}
                <strong>Archive</strong> in the header (or{" "}
                <code className="font-mono">npm run grading -- import … --submission &lt;archive&gt;</code>) to review
                the code here.
              </p>
            </>
          }
        />
      </div>
    </div>
  );
}

function LatestReproduction({ submissionId }: { submissionId: string }) {
  const submission = useSubmission(submissionId, 5_000);
  const [logOpen, setLogOpen] = useState(false);
  const reproductions = (submission.data?.jobs ?? []).filter((j) => j.kind === "reproduce");
  // The one the judge read (the latest that ran, however it ended), else the latest.
  const job =
    reproductions.find((j) =>
      isJudgeableReproduction({ kind: j.kind, status: j.status, outputsSha256: j.outputs?.sha256 ?? null }),
    ) ?? reproductions[0];
  if (!job) return null;
  const ended = describeReproductionEnd({
    status: job.status,
    exitCode: job.exitCode,
    durationS: job.metadata?.repro_execution_time ?? job.durationS,
    timeoutS: job.timeoutS,
    reason: job.failureReason,
  });
  const changed = job.outputs?.files.filter((f) => f.changed).length ?? 0;
  return (
    <div
      className="shrink-0 space-y-1.5 border-b border-zinc-200 bg-zinc-50/60 p-2 text-xs"
      data-testid="review-reproduction"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-zinc-700">Reproduction</span>
        <JobStatusBadge status={job.status} cancelRequested={job.cancelRequested} testId="review-reproduction-status" />
        {ended !== null ? (
          <span
            className={job.status === "succeeded" ? "text-zinc-600" : "font-medium text-amber-800"}
            title="Every reproduction that ran is judged however it ended, as PaperBench judges it"
            data-testid="review-reproduction-end"
          >
            {ended}
          </span>
        ) : (
          job.durationS !== null && <span className="text-zinc-500">{formatDurationS(job.durationS)}</span>
        )}
        <IntentLink
          href={`/submissions/${submissionId}`}
          className="ml-auto inline-flex items-center gap-1 text-indigo-700 hover:underline"
          data-testid="review-submission-link"
        >
          Open <ExternalLink size={11} aria-hidden />
        </IntentLink>
      </div>
      <div className="flex flex-wrap items-center gap-3 text-zinc-600">
        <button
          type="button"
          onClick={() => setLogOpen((o) => !o)}
          className="inline-flex items-center gap-1 hover:text-zinc-900"
          aria-expanded={logOpen}
        >
          <ScrollText size={12} aria-hidden /> {logOpen ? "Hide its log" : "Its log"}
        </button>
        {job.outputs && (
          <a
            href={`/api/jobs/${job.id}/outputs`}
            className="inline-flex items-center gap-1 hover:text-zinc-900"
            download
          >
            <Download size={12} aria-hidden /> Outputs ({job.outputs.files.length} files, {changed} changed)
          </a>
        )}
      </div>
      {logOpen && <LogTail job={job} />}
    </div>
  );
}

function LogTail({ job }: { job: JobView }) {
  const tail = useQuery({
    queryKey: ["job-log-tail", job.id, job.status],
    queryFn: () => fetchJson<{ logTail: string }>(`/api/jobs/${job.id}`).then((r) => r.logTail),
  });
  if (tail.isPending) return <div className="h-16 animate-pulse rounded bg-zinc-100" />;
  if (tail.isError) return <p className="text-red-700">{tail.error.message}</p>;
  return (
    <pre
      className="max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-950 p-2 font-mono text-[11px] leading-relaxed text-zinc-200"
      data-testid="review-reproduction-log"
    >
      {Anser.ansiToText(tail.data) || "(no output)"}
    </pre>
  );
}
