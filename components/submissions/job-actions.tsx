"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Play, RotateCcw, Square } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { fetchJson } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { JobView } from "@/lib/jobs/job-view";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { submissionKey } from "./submission-query";

/** Staff's buttons on a submission: Reproduce (no reproduction yet), Cancel (queued or running, confirmed), Retry (ended). */
export function JobActions({
  submissionId,
  job,
  canReproduce,
  onNewJob,
}: {
  submissionId: string;
  job: JobView | null;
  canReproduce: boolean;
  onNewJob(jobId: string): void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => refetchAfterChange(queryClient, submissionKey(submissionId));
  const onError = (e: Error) => toast.error(e.message);

  const reproduce = useMutation({
    mutationFn: () => fetchJson<{ jobId: string }>(`/api/submissions/${submissionId}/reproduce`, { method: "POST" }),
    onSuccess: ({ jobId }) => {
      toast.success("Reproduction queued");
      onNewJob(jobId);
      return refresh();
    },
    onError,
  });
  const retry = useMutation({
    mutationFn: (jobId: string) => fetchJson<{ jobId: string }>(`/api/jobs/${jobId}/retry`, { method: "POST" }),
    onSuccess: ({ jobId }) => {
      toast.success("Queued again as a new reproduction");
      onNewJob(jobId);
      return refresh();
    },
    onError,
  });
  const cancel = useMutation({
    mutationFn: (jobId: string) => fetchJson(`/api/jobs/${jobId}/cancel`, { method: "POST" }),
    onSuccess: () => {
      setConfirming(false);
      toast.success("Cancel requested: the runner stops reproduce.sh (SIGTERM, then SIGKILL after 10 s)");
      return refresh();
    },
    onError,
  });

  if (!job) {
    return canReproduce ? (
      <Button onClick={() => reproduce.mutate()} disabled={reproduce.isPending} data-testid="reproduce">
        <Play size={14} aria-hidden /> Reproduce
      </Button>
    ) : null;
  }
  if (isFinalJobStatus(job.status)) {
    return (
      <Button variant="secondary" onClick={() => retry.mutate(job.id)} disabled={retry.isPending} data-testid="retry">
        <RotateCcw size={14} aria-hidden /> Retry
      </Button>
    );
  }
  return (
    <>
      <Button
        variant="danger"
        onClick={() => setConfirming(true)}
        disabled={job.cancelRequested}
        data-testid="cancel-job"
      >
        <Square size={14} aria-hidden /> {job.cancelRequested ? "Cancelling…" : "Cancel"}
      </Button>
      {confirming && (
        <ConfirmDialog
          title="Cancel this reproduction?"
          confirmText="Cancel the reproduction"
          pending={cancel.isPending}
          onConfirm={() => cancel.mutate(job.id)}
          onClose={() => setConfirming(false)}
        >
          <p>
            {job.status === "queued"
              ? "It has not started: it leaves the queue."
              : "reproduce.sh gets SIGTERM, then SIGKILL after 10 s; its log so far is kept. Retry runs it again from the start."}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
