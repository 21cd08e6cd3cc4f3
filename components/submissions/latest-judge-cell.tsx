import Link from "next/link";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import type { LatestJudgeRunView } from "@/lib/judge/views";

/** A submission's latest judge run: its status, leaves done of total, and its grading. */
export function LatestJudgeCell({ run }: { run: LatestJudgeRunView | null }) {
  if (!run) return <span className="text-zinc-400">—</span>;
  return (
    <Link
      href={`/gradings/${run.gradingId}`}
      className="inline-flex items-center gap-1.5 hover:underline"
      data-testid="submission-judge"
      data-status={run.status}
      title="Open the grading"
    >
      <JobStatusBadge status={run.status} />
      <span className="whitespace-nowrap text-xs tabular-nums text-zinc-600">
        {run.leavesDone}/{run.leavesTotal}
        {run.leavesInvalid > 0 && <span className="text-amber-700"> · {run.leavesInvalid} invalid</span>}
      </span>
    </Link>
  );
}
