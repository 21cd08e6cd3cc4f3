"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import type { StartJudgeLabRequest } from "@/lib/judge/lab/schemas";
import type { LabSubmission, LabSummary, LabView } from "@/lib/judge/lab/types";
import type { JudgeConfigView } from "@/lib/judge/views";

/** The lab's reads and its start, shared by the lab and calibration panels. */

export function useLabList() {
  return useQuery({
    queryKey: ["judge-lab"],
    queryFn: () => fetchJson<{ labs: LabSummary[]; submissions: LabSubmission[] }>("/api/judge-lab"),
  });
}

export function useJudgeConfigs() {
  return useQuery({
    queryKey: ["judge-configs", "active"],
    queryFn: () => fetchJson<{ configs: JudgeConfigView[] }>("/api/judge/configs").then((r) => r.configs),
  });
}

/** A lab, polled every 2 s while any of its runs is still going. */
export function useLab(labId: string) {
  return useQuery({
    queryKey: ["judge-lab", labId],
    queryFn: () => fetchJson<LabView>(`/api/judge-lab/${labId}`),
    refetchInterval: (q) => (q.state.data && q.state.data.lab.pending === 0 ? false : 2_000),
    staleTime: 0,
  });
}

export function useStartLab(onStarted: (labId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartJudgeLabRequest) =>
      fetchJson<{ labId: string; runs: number }>("/api/judge-lab", jsonInit("POST", body)),
    onSuccess: async ({ labId }) => {
      await refetchAfterChange(queryClient, ["judge-lab"]);
      onStarted(labId);
    },
  });
}
