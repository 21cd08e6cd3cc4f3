"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button, buttonClass } from "@/components/ui/button";
import { fetchJson } from "@/components/api/client";
import { downloadRubricExport } from "@/components/api/export-download";
import type { ErrorDetail } from "@/lib/errors";
import type { RubricNode, RubricStats, RubricWarning } from "@/lib/rubric/types";
import { ReplaceRubricDialog, useConfirmedImport } from "./confirm-import";
import { IssueList } from "./import-result";
import { RubricLintSummary, type RubricLintView } from "./rubric-lint-summary";
import { RubricTreeView } from "./rubric-tree-view";
import { uploadFormFromFiles } from "./upload-files";

interface RubricResponse {
  revision: number;
  canEdit: boolean;
  tree: RubricNode | null;
  stats: RubricStats | null;
  lint: RubricLintView | null;
}

interface ImportResponse {
  revision: number;
  stats: RubricStats;
  warnings: RubricWarning[];
}

export const rubricQueryKey = (paperId: string) => ["rubric", paperId] as const;

/** The paper's rubric: summary, lint, upload (authors, staff), export, read-only tree. */
export function RubricPanel({ paperId, canEdit }: { paperId: string; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [exportBlock, setExportBlock] = useState<ErrorDetail[]>([]);
  const query = useQuery({
    queryKey: rubricQueryKey(paperId),
    queryFn: () => fetchJson<RubricResponse>(`/api/papers/${paperId}/rubric`),
  });

  // Replacing a rubric with nodes shows the changes and waits for a yes.
  const upload = useConfirmedImport<ImportResponse>({
    previewUrl: `/api/papers/${paperId}/rubric/preview`,
    importUrl: `/api/papers/${paperId}/rubric`,
    importMethod: "PUT",
    onImported: (result) => {
      toast.success(
        `Rubric imported: ${result.stats.nodes} nodes, revision ${result.revision}` +
          (result.warnings.length ? ` (${result.warnings.length} warnings)` : ""),
      );
      return refetchAfterChange(queryClient, rubricQueryKey(paperId));
    },
  });

  async function download(force: boolean) {
    const outcome = await downloadRubricExport(paperId, { force, fileName: "rubric.json" });
    if (outcome.ok) setExportBlock([]);
    else {
      if (outcome.blocked) setExportBlock(outcome.details);
      toast.error(outcome.message);
    }
  }

  const data = query.data;
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-5" aria-labelledby="rubric-heading">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="rubric-heading" className="text-lg font-semibold">
          Rubric
        </h2>
        {data?.stats && (
          <span data-testid="rubric-stats" className="text-sm text-zinc-600">
            {data.stats.nodes.toLocaleString("en")} nodes · {data.stats.leaves.toLocaleString("en")} leaves · depth{" "}
            {data.stats.depth} · revision {data.revision}
          </span>
        )}
        <div className="ml-auto flex gap-2">
          <Link href={`/papers/${paperId}/rubric`} className={buttonClass("secondary")} data-testid="open-editor">
            Open editor
          </Link>
          {canEdit && (
            <>
              <input
                ref={fileInput}
                type="file"
                accept="application/json,.json"
                aria-label="Upload rubric.json"
                className="hidden"
                onChange={(e) => {
                  const files = e.target.files;
                  if (files?.length) {
                    const built = uploadFormFromFiles(files);
                    if ("error" in built) toast.error(built.error);
                    else void upload.start(built.form);
                  }
                  e.target.value = "";
                }}
              />
              <Button variant="secondary" disabled={upload.pending !== null} onClick={() => fileInput.current?.click()}>
                {upload.pending === "preview"
                  ? "Reading…"
                  : upload.pending === "import"
                    ? "Importing…"
                    : data?.tree
                      ? "Replace from rubric.json"
                      : "Upload rubric.json"}
              </Button>
              {upload.asking && (
                <ReplaceRubricDialog
                  asking={upload.asking}
                  pending={upload.pending === "import"}
                  onConfirm={upload.confirm}
                  onCancel={upload.cancel}
                />
              )}
            </>
          )}
          {data?.tree && <Button onClick={() => download(false)}>Download rubric.json</Button>}
        </div>
      </div>

      <div className="mt-3 space-y-3">
        <IssueList items={upload.errors} tone="error" testId="upload-errors" />
        {exportBlock.length > 0 && (
          <div className="space-y-2">
            <IssueList items={exportBlock} tone="error" testId="export-blocked" />
            <Button variant="danger" onClick={() => download(true)}>
              Export anyway
            </Button>
          </div>
        )}
        {query.isPending && <p className="text-sm text-zinc-500">Loading the rubric…</p>}
        {query.isError && (
          <p role="alert" className="text-sm text-red-700">
            {query.error.message}
          </p>
        )}
        {data && !data.tree && (
          <p
            className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600"
            data-testid="rubric-empty"
          >
            No rubric yet.{" "}
            {canEdit ? "Upload a PaperBench rubric.json to start." : "The paper's authors have not added one."}
          </p>
        )}
        {data?.lint && <RubricLintSummary paperId={paperId} lint={data.lint} />}
        {data?.tree && <RubricTreeView tree={data.tree} />}
      </div>
    </section>
  );
}
