"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/client";
import type { EvaluationMatrix } from "@/lib/evaluations/matrix";

export const evaluationMatrixKey = (evaluationId: string) => ["evaluation-matrix", evaluationId] as const;

/** The evaluation's matrix; the stream (use-evaluation-stream) says when to read it again. */
export function useEvaluationMatrix(evaluationId: string) {
  return useQuery({
    queryKey: evaluationMatrixKey(evaluationId),
    queryFn: () =>
      fetchJson<EvaluationMatrix>(`/api/evaluations/${encodeURIComponent(evaluationId)}/matrix`, { cache: "no-store" }),
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}
