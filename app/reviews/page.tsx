import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { EyeOff } from "lucide-react";
import { formatDuration } from "@/components/review/score-style";
import { getCurrentUser } from "@/server/auth/session";
import { listReviewQueue, type ReviewQueueItem } from "@/server/reviews/review-queue";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "My reviews" };

/** A grader's queue: the gradings (or subtrees) assigned to them, with progress; staff also see everyone's. */
export default async function ReviewsPage() {
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent("/reviews")}`);
  const store = await getStore();
  const mine = await listReviewQueue(store, { userId: user.id });
  const everyone = user.isStaff ? await listReviewQueue(store) : null;
  return (
    <div className="space-y-8">
      <section>
        <h1 className="mb-1 text-2xl font-semibold">My reviews</h1>
        <p className="mb-4 text-sm text-zinc-600">
          Gradings assigned to you. Open one to review its verdicts with the keyboard:{" "}
          <kbd className="font-mono">j</kbd>/<kbd className="font-mono">k</kbd> move, <kbd className="font-mono">0</kbd>
          /<kbd className="font-mono">1</kbd> score, <kbd className="font-mono">n</kbd> next unreviewed.
        </p>
        {mine.length === 0 ? (
          <div
            className="rounded-lg border border-dashed border-zinc-300 bg-white p-10 text-center text-zinc-600"
            data-testid="queue-empty"
          >
            Nothing is assigned to you. Benchmark staff assign gradings to graders from a grading&apos;s review page.
          </div>
        ) : (
          <QueueTable items={mine} showGrader={false} testId="review-queue" />
        )}
      </section>
      {everyone && (
        <section>
          <h2 className="mb-3 text-lg font-semibold">All assignments</h2>
          {everyone.length === 0 ? (
            <p className="text-sm text-zinc-500">No grading is assigned to anyone yet.</p>
          ) : (
            <QueueTable items={everyone} showGrader testId="all-assignments" />
          )}
        </section>
      )}
    </div>
  );
}

function QueueTable({ items, showGrader, testId }: { items: ReviewQueueItem[]; showGrader: boolean; testId: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="bg-zinc-50 text-left text-[11px] uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="px-3 py-2 font-semibold">Paper</th>
            <th className="px-3 py-2 font-semibold">Run</th>
            {showGrader && <th className="px-3 py-2 font-semibold">Grader</th>}
            <th className="px-3 py-2 font-semibold">Scope</th>
            <th className="px-3 py-2 font-semibold">Progress</th>
            <th className="px-3 py-2 text-right font-semibold">Time spent</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {items.map((a) => {
            const pct = a.progress.total ? (a.progress.reviewed / a.progress.total) * 100 : 0;
            return (
              <tr
                key={a.assignmentId}
                className="border-t border-zinc-100"
                data-testid="queue-item"
                data-grading={a.gradingId}
              >
                <td className="max-w-64 px-3 py-2">
                  <div className="truncate font-medium text-zinc-900" title={a.paperTitle}>
                    {a.paperTitle}
                  </div>
                  <div className="font-mono text-xs text-zinc-500">{a.paperId}</div>
                </td>
                <td className="px-3 py-2 text-zinc-800">
                  {a.agentName} · run {a.runIndex}
                  {a.variant === "code-dev" && <span className="ml-1 text-xs text-sky-700">Code-Dev</span>}
                  <div className="text-xs text-zinc-500">{a.kind === "human" ? "human grading" : "judge grading"}</div>
                </td>
                {showGrader && <td className="px-3 py-2 text-zinc-700">{a.grader.name ?? a.grader.email}</td>}
                <td className="px-3 py-2 text-xs text-zinc-700">
                  {a.nodeKeys ? `${a.nodeKeys.length} subtree${a.nodeKeys.length === 1 ? "" : "s"}` : "Whole grading"}
                  {a.blind && (
                    <span
                      className="ml-1.5 inline-flex items-center gap-0.5 rounded bg-zinc-100 px-1 text-[10px] font-medium text-zinc-600"
                      data-testid="queue-blind"
                    >
                      <EyeOff size={10} aria-hidden /> blind
                    </span>
                  )}
                </td>
                <td className="px-3 py-2">
                  <div className="flex items-center gap-2">
                    <span className="h-1.5 w-24 overflow-hidden rounded-full bg-zinc-200">
                      <span className="block h-full bg-emerald-500" style={{ width: `${pct}%` }} />
                    </span>
                    <span className="font-mono text-xs tabular-nums" data-testid="queue-progress">
                      {a.progress.reviewed}/{a.progress.total}
                    </span>
                  </div>
                </td>
                <td className="px-3 py-2 text-right font-mono text-xs tabular-nums text-zinc-700">
                  {formatDuration(a.progress.timeSpentMs)}
                </td>
                <td className="px-3 py-2 text-right">
                  <Link
                    href={`/gradings/${a.gradingId}`}
                    className="font-medium text-indigo-700 hover:underline"
                    data-testid="queue-open"
                  >
                    {a.progress.reviewed === 0
                      ? "Start"
                      : a.progress.reviewed >= a.progress.total
                        ? "Open"
                        : "Continue"}
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
