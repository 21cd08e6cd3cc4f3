"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { fetchJson } from "@/components/api/client";
import { ReviewModel } from "@/lib/review/review-model";
import type { ReviewPayload } from "@/lib/review/types";

export const reviewQueryKey = (gradingId: string) => ["review", gradingId] as const;

/** The grading to review, loaded once, and the model the page reads and commits through. */
export function useReviewModel(gradingId: string) {
  const query = useQuery({
    queryKey: reviewQueryKey(gradingId),
    queryFn: async () => {
      const payload = await fetchJson<ReviewPayload>(`/api/gradings/${gradingId}`);
      performance.mark("review:data");
      return payload;
    },
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    // A grading the judge is still filling: its verdicts appear as they arrive.
    refetchInterval: (q) => (isRunning(q.state.data?.grading.judgeRun?.status) ? 2_000 : false),
  });
  const model = useMemo(() => {
    if (!query.data) return null;
    const built = new ReviewModel(query.data);
    performance.mark("review:model");
    return built;
  }, [query.data]);
  return { query, model };
}

function isRunning(status: string | undefined): boolean {
  return status === "queued" || status === "running";
}
