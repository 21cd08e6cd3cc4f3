import Link from "next/link";
import { formatUsd } from "@/components/judge/format";
import type { JobJudgeProgress } from "@/lib/jobs/job-view";

/** A judge job's cell on /jobs: leaves done of total, invalid ones, cost so far, and its grading. */
export function JudgeJobProgress({ judge }: { judge: JobJudgeProgress }) {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs" data-testid="job-judge-progress">
      <span className="whitespace-nowrap tabular-nums text-zinc-700">
        {judge.leavesDone}/{judge.leavesTotal} leaves
      </span>
      {judge.leavesInvalid > 0 && <span className="tabular-nums text-amber-700">{judge.leavesInvalid} invalid</span>}
      <span className="tabular-nums text-zinc-500">{formatUsd(judge.costUsd)}</span>
      <Link
        href={`/gradings/${judge.gradingId}`}
        className="font-medium text-indigo-700 hover:underline"
        data-testid="job-grading-link"
      >
        grading
      </Link>
    </span>
  );
}
