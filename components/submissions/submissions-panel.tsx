"use client";

import { useQuery } from "@tanstack/react-query";
import { Upload } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { fetchJson } from "@/components/api/client";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { Button } from "@/components/ui/button";
import type { JobStatus } from "@/lib/jobs/states";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { UploadSubmissionForm } from "./upload-submission-form";

interface SubmissionItem {
  id: string;
  agentName: string;
  runIndex: number;
  variant: "full" | "code-dev";
  archiveName: string | null;
  archiveFileCount: number;
  latestJobStatus: JobStatus | null;
  createdAt: string;
}

/** The paper page's Submissions: every run of every agent with its latest reproduction, and staff's upload. */
export function SubmissionsPanel({ paperId, canUpload }: { paperId: string; canUpload: boolean }) {
  const [uploading, setUploading] = useState(false);
  const list = useQuery({
    queryKey: ["paper-submissions", paperId],
    queryFn: () => fetchJson<{ submissions: SubmissionItem[] }>(`/api/papers/${paperId}/submissions`).then((r) => r.submissions),
    // A running reproduction's badge moves on without a reload.
    refetchInterval: (q) => (q.state.data?.some((s) => s.latestJobStatus && !isFinalJobStatus(s.latestJobStatus)) ? 3_000 : false),
  });

  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-5" aria-labelledby="submissions-title" data-testid="submissions-panel">
      <div className="mb-3 flex items-center gap-3">
        <h2 id="submissions-title" className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Submissions
        </h2>
        {canUpload && !uploading && (
          <Button variant="secondary" className="ml-auto" onClick={() => setUploading(true)} data-testid="open-upload-submission">
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
          {canUpload
            ? "Upload an agent's repository (reproduce.sh at its root) to run it, or use npm run submission -- upload."
            : "Staff upload them."}
        </p>
      )}
      {list.data && list.data.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
              <tr>
                <th className="py-1.5 pr-3 font-medium">Agent</th>
                <th className="py-1.5 pr-3 font-medium">Run</th>
                <th className="py-1.5 pr-3 font-medium">Variant</th>
                <th className="py-1.5 pr-3 font-medium">Files</th>
                <th className="py-1.5 pr-3 font-medium">Reproduction</th>
                <th className="py-1.5 font-medium">Added</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {list.data.map((s) => (
                <tr key={s.id} data-testid="submission-row">
                  <td className="py-1.5 pr-3">
                    <Link href={`/submissions/${s.id}`} className="font-medium text-indigo-700 hover:underline">
                      {s.agentName}
                    </Link>
                  </td>
                  <td className="py-1.5 pr-3 tabular-nums">{s.runIndex}</td>
                  <td className="py-1.5 pr-3 text-zinc-600">{s.variant}</td>
                  <td className="py-1.5 pr-3 tabular-nums text-zinc-600">{s.archiveFileCount.toLocaleString("en")}</td>
                  <td className="py-1.5 pr-3">{s.latestJobStatus ? <JobStatusBadge status={s.latestJobStatus} /> : <span className="text-zinc-400">—</span>}</td>
                  <td className="whitespace-nowrap py-1.5 text-zinc-500">{new Date(s.createdAt).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
