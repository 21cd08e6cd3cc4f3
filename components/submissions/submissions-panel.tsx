"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Upload } from "lucide-react";
import { useMemo, useState } from "react";
import { fetchJson } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { JudgeSelectionBar } from "./judge-selection-bar";
import type { SubmissionItem } from "./submission-item";
import { SubmissionsTable } from "./submissions-table";
import { UploadSubmissionForm } from "./upload-submission-form";
import { useSubmissionSelection } from "./use-submission-selection";

function isLive(s: SubmissionItem): boolean {
  return (
    (s.latestJobStatus !== null && !isFinalJobStatus(s.latestJobStatus)) ||
    (s.latestJudge !== null && !isFinalJobStatus(s.latestJudge.status))
  );
}

/**
 * The paper page's Submissions: every run of every agent with its latest reproduction and judge
 * run; staff upload, and select runs (one by one or an agent's all) to judge them together.
 */
export function SubmissionsPanel({ paperId, canManage }: { paperId: string; canManage: boolean }) {
  const [uploading, setUploading] = useState(false);
  const queryClient = useQueryClient();
  const queryKey = ["paper-submissions", paperId];
  const list = useQuery({
    queryKey,
    queryFn: () =>
      fetchJson<{ submissions: SubmissionItem[] }>(`/api/papers/${paperId}/submissions`).then((r) => r.submissions),
    // A running reproduction's or judge run's badge moves on without a reload.
    refetchInterval: (q) => (q.state.data?.some(isLive) ? 3_000 : false),
  });
  const selection = useSubmissionSelection(useMemo(() => list.data?.map((s) => s.id) ?? [], [list.data]));
  const selected = list.data?.filter((s) => selection.selected.includes(s.id)) ?? [];

  return (
    <section
      className="rounded-lg border border-zinc-200 bg-white p-5"
      aria-labelledby="submissions-title"
      data-testid="submissions-panel"
    >
      <div className="mb-3 flex items-center gap-3">
        <h2 id="submissions-title" className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Submissions
        </h2>
        {canManage && !uploading && (
          <Button
            variant="secondary"
            className="ml-auto"
            onClick={() => setUploading(true)}
            data-testid="open-upload-submission"
          >
            <Upload size={14} aria-hidden /> Upload
          </Button>
        )}
      </div>
      {uploading && (
        <div className="mb-4">
          <UploadSubmissionForm paperId={paperId} onDone={() => setUploading(false)} />
        </div>
      )}
      {list.isPending && <p className="text-sm text-zinc-500">Loading…</p>}
      {list.isError && (
        <p role="alert" className="text-sm text-red-700">
          {list.error.message}
        </p>
      )}
      {list.data?.length === 0 && (
        <p className="text-sm text-zinc-500" data-testid="no-submissions">
          No submissions yet.{" "}
          {canManage
            ? "Upload an agent's repository (reproduce.sh at its root) to run it, or use npm run submission -- upload."
            : "Staff upload them."}
        </p>
      )}
      {list.data && list.data.length > 0 && (
        <>
          {canManage && (
            <JudgeSelectionBar
              selected={selected}
              onClear={selection.clear}
              onStarted={() => void refetchAfterChange(queryClient, queryKey)}
            />
          )}
          <SubmissionsTable items={list.data} selection={canManage ? selection : null} />
        </>
      )}
    </section>
  );
}
