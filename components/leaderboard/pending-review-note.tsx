/** Why some scores are missing: what "pending review" means, wherever a pending run is shown. */
export function PendingReviewNote() {
  return (
    <p className="text-xs text-zinc-600" data-testid="pending-review-note">
      <strong className="font-medium">Pending review</strong>: a grader is reviewing a run&apos;s grading blind, without
      seeing the judge&apos;s verdicts, and its score would give them away. Until the review is done the run is left
      out: the agent&apos;s score is the mean of its other complete runs, or waits when it has none, and the
      paper&apos;s breakdown counts the run as pending.
    </p>
  );
}
