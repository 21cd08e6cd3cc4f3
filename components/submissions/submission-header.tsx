"use client";

import Link from "next/link";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { useNow } from "@/components/hooks/use-now";
import { formatBytes } from "@/lib/bytes";
import { jobElapsedS } from "@/lib/jobs/describe";
import { formatDurationS } from "@/lib/jobs/duration";
import { plural } from "@/lib/leaderboard/format";
import type { JobView } from "@/lib/jobs/job-view";
import type { SubmissionView } from "@/lib/submissions/submission-view";
import { JobActions } from "./job-actions";

/** Which run this is, its reproduction's state (elapsed ticking while it runs), and staff's actions. */
export function SubmissionHeader({
  submission,
  job,
  canManage,
  onPickJob,
}: {
  submission: SubmissionView;
  job: JobView | null;
  canManage: boolean;
  onPickJob(jobId: string | null): void;
}) {
  const now = useNow(job?.status === "running" ? 1_000 : null);
  const elapsed = job ? jobElapsedS(job, now) : null;
  const canReproduce = canManage && submission.variant === "full" && submission.archive.sha256 !== null;
  return (
    <header className="space-y-3">
      <nav className="text-sm text-zinc-500">
        <Link href={`/papers/${submission.paper.id}`} className="hover:underline">
          {submission.paper.title}
        </Link>{" "}
        / Submissions
      </nav>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-semibold" data-testid="submission-title">
          {submission.agent.name} <span className="font-normal text-zinc-500">· run {submission.runIndex}</span>
        </h1>
        <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700">{submission.variant}</span>
        {job && <JobStatusBadge status={job.status} cancelRequested={job.cancelRequested} testId="job-status" />}
        <div className="ml-auto flex items-center gap-2">
          {submission.jobs.length > 1 && (
            <select
              value={job?.id ?? ""}
              onChange={(e) => onPickJob(e.target.value)}
              aria-label="Reproduction"
              className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm"
              data-testid="job-picker"
            >
              {submission.jobs.map((j, i) => (
                <option key={j.id} value={j.id}>
                  Reproduction {submission.jobs.length - i}
                  {i === 0 ? " (latest)" : ""} · {j.status.replace("_", " ")}
                </option>
              ))}
            </select>
          )}
          {canManage && (
            <JobActions submissionId={submission.id} job={job} canReproduce={canReproduce} onNewJob={onPickJob} />
          )}
        </div>
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <Fact label="Elapsed" testId="job-elapsed">
          {elapsed === null ? "—" : formatDurationS(elapsed)}
        </Fact>
        <Fact label="Exit code" testId="job-exit-code">
          {job?.exitCode ?? "—"}
        </Fact>
        {job?.runnerName && <Fact label="Runner">{job.runnerName}</Fact>}
        {job && job.gpuIndices.length > 0 && <Fact label="GPUs">{job.gpuIndices.join(", ")}</Fact>}
        {job && retried(job) && (
          <Fact label="Attempt" testId="job-attempt">{`${job.attempts} of ${job.maxAttempts}`}</Fact>
        )}
        <Fact label="Archive" testId="submission-archive">
          {submission.archive.name ?? "—"} · {plural(submission.archive.fileCount, "file")}
          {submission.archive.expandedBytes !== null && ` · ${formatBytes(submission.archive.expandedBytes)}`}
        </Fact>
      </dl>
      {job?.status === "running" && job.cancelRequested && (
        <p
          role="status"
          className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-700"
          data-testid="job-cancelling"
        >
          Cancel requested: the runner is stopping reproduce.sh (SIGTERM, then SIGKILL after its grace period). The job
          ends cancelled, whatever the run does meanwhile.
        </p>
      )}
      {job?.failureReason && (
        <p
          role="alert"
          className={`rounded-md border px-3 py-2 text-sm ${job.status === "cancelled" ? "border-zinc-200 bg-zinc-50 text-zinc-700" : "border-red-200 bg-red-50 text-red-800"}`}
          data-testid="job-failure-reason"
        >
          {job.failureReason}
        </p>
      )}
    </header>
  );
}

/** Attempts are news only once there was more than one: a later attempt, or queued again after one. */
function retried(job: JobView): boolean {
  return job.attempts > 1 || (job.status === "queued" && job.attempts > 0);
}

function Fact({ label, testId, children }: { label: string; testId?: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="font-medium tabular-nums text-zinc-800" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
