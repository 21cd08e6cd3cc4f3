"use client";

import { useQueryClient } from "@tanstack/react-query";
import { GitCompareArrows } from "lucide-react";
import Link from "next/link";
import { useCallback, useState } from "react";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { SubmissionJudgeRuns } from "@/components/judge/submission-judge-runs";
import type { JobView } from "@/lib/jobs/job-view";
import { AttemptsPanel, MetadataPanel, OutputsPanel } from "./job-details";
import { LogPanel } from "./log-panel";
import { SubmissionFiles } from "./submission-files";
import { SubmissionFlagsPanel } from "./submission-flags";
import { SubmissionHeader } from "./submission-header";
import { submissionKey, useSubmission } from "./submission-query";
import { useJobLog } from "./use-job-log";

const TABS = ["Log", "Files", "Outputs", "Attempts", "Metadata"] as const;
type Tab = (typeof TABS)[number];

/** A submission: its latest (or chosen) reproduction's live log, outputs, attempts and metadata, and its files. */
export function SubmissionPage({ submissionId, canManage }: { submissionId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const submission = useSubmission(submissionId, 10_000);
  const [pickedJobId, setPickedJobId] = useState<string | null>(null);
  const jobs = submission.data?.jobs ?? [];
  const job: JobView | null = jobs.find((j) => j.id === pickedJobId) ?? jobs[0] ?? null;
  // Until someone picks a tab: the log when there is a reproduction, else the files.
  const [tab, setTab] = useState<Tab | null>(null);
  const activeTab: Tab = !job ? "Files" : (tab ?? "Log");

  const onState = useCallback(
    () => void refetchAfterChange(queryClient, submissionKey(submissionId)),
    [queryClient, submissionId],
  );
  const log = useJobLog(job?.id ?? null, onState);

  if (submission.isPending) return <div className="h-40 animate-pulse rounded-lg bg-zinc-100" aria-busy="true" />;
  if (submission.isError) {
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        {submission.error.message}
      </p>
    );
  }
  const data = submission.data;
  const onPickJob = (jobId: string | null) => {
    setPickedJobId(jobId);
    setTab("Log");
  };

  return (
    <div className="space-y-4" data-testid="submission-page">
      <SubmissionHeader submission={data} job={job} canManage={canManage} onPickJob={onPickJob} />
      <SubmissionFlagsPanel flags={data.flags} />
      <SubmissionJudgeRuns submissionId={submissionId} variant={data.variant} canManage={canManage} />
      <p className="text-sm">
        <Link
          href={`/submissions/${submissionId}/compare`}
          className="inline-flex items-center gap-1 font-medium text-indigo-700 hover:underline"
          data-testid="compare-gradings-link"
        >
          <GitCompareArrows size={15} aria-hidden /> Compare two gradings of this submission, leaf by leaf
        </Link>
      </p>
      <div role="tablist" aria-label="Submission" className="flex gap-1 border-b border-zinc-200">
        {TABS.map((t) => {
          const disabled = !job && t !== "Files";
          return (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={activeTab === t}
              disabled={disabled}
              onClick={() => setTab(t)}
              data-testid={`tab-${t.toLowerCase()}`}
              className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${
                activeTab === t
                  ? "border-indigo-600 text-indigo-700"
                  : "border-transparent text-zinc-600 hover:text-zinc-900 disabled:text-zinc-300"
              }`}
            >
              {t}
              {t === "Outputs" && job?.outputs && (
                <span className="ml-1.5 text-xs text-zinc-400">{job.outputs.files.length}</span>
              )}
              {t === "Files" && <span className="ml-1.5 text-xs text-zinc-400">{data.archive.fileCount}</span>}
            </button>
          );
        })}
      </div>
      <div role="tabpanel">
        {!job && (
          <p className="mb-3 text-sm text-zinc-600" data-testid="no-reproduction">
            {data.variant === "code-dev"
              ? "A Code-Dev submission is not reproduced: PaperBench grades only its code, the files below."
              : data.archive.sha256
                ? "These are the files as submitted. Its log and outputs come with a reproduction, which has not run yet."
                : "This submission was imported for review only; upload its archive on the paper page to reproduce it."}
          </p>
        )}
        {activeTab === "Log" && job && <LogPanel key={job.id} job={job} log={log} />}
        {activeTab === "Files" && (
          <div className="h-[min(70vh,44rem)] overflow-hidden rounded-lg border border-zinc-200 bg-white">
            <SubmissionFiles
              filesUrl={`/api/submissions/${submissionId}/files`}
              listMaxHeight="max-h-56"
              empty={<p className="text-sm text-zinc-600">No files were stored for this submission.</p>}
            />
          </div>
        )}
        {activeTab === "Outputs" && job && <OutputsPanel job={job} />}
        {activeTab === "Attempts" && job && <AttemptsPanel job={job} />}
        {activeTab === "Metadata" && job && <MetadataPanel job={job} />}
      </div>
    </div>
  );
}
