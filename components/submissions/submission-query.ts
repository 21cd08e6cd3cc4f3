"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/client";
import { isFinalJobStatus } from "@/lib/jobs/states";
import type { SubmissionView } from "@/lib/submissions/submission-view";

export const submissionKey = (submissionId: string) => ["submission", submissionId] as const;

/**
 * A submission with its reproductions. While its latest one has not ended it is read again every
 * `pollMs` (a page that follows the log over SSE refetches on its events and passes none).
 */
export function useSubmission(submissionId: string, pollMs: number | false = false) {
  return useQuery({
    queryKey: submissionKey(submissionId),
    queryFn: () =>
      fetchJson<{ submission: SubmissionView }>(`/api/submissions/${submissionId}`).then((r) => r.submission),
    refetchInterval: (q) => {
      const latest = q.state.data?.jobs[0];
      return pollMs && latest && !isFinalJobStatus(latest.status) ? pollMs : false;
    },
  });
}
