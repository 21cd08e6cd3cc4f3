"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { FilePicker } from "@/components/ui/file-picker";
import { IssueList } from "./import-result";
import { ReplaceRubricDialog, useConfirmedImport } from "./confirm-import";
import { uploadFormFromFiles } from "./upload-files";

/**
 * Staff: import a PaperBench paper folder (config.yaml + rubric.json + blacklist.txt) as a paper.
 * When the paper exists with a rubric, the changes are shown and the import waits for a yes.
 */
export function ImportFolderForm() {
  const router = useRouter();
  const [folder, setFolder] = useState<string | null>(null);
  const flow = useConfirmedImport<{ paperId: string; createdPaper: boolean; stats: { nodes: number } }>({
    previewUrl: "/api/import/preview",
    importUrl: "/api/import",
    importMethod: "POST",
    onImported: (result) => {
      toast.success(
        `${result.createdPaper ? "Imported" : "Replaced the rubric of"} ${result.paperId} (${result.stats.nodes} nodes)`,
      );
      router.push(`/papers/${result.paperId}`);
    },
  });

  function pick(files: File[]) {
    const built = uploadFormFromFiles(files);
    setFolder(files[0].webkitRelativePath.split("/")[0] || files[0].name);
    if ("error" in built) toast.error(built.error);
    else void flow.start(built.form);
  }

  return (
    <aside className="h-fit space-y-3 rounded-lg border border-zinc-200 bg-white p-5">
      <h2 className="font-semibold">Import a PaperBench folder</h2>
      <p className="text-sm text-zinc-600">
        Pick a paper folder with <code>rubric.json</code>, <code>config.yaml</code> and <code>blacklist.txt</code>. The
        paper is created from <code>config.yaml</code> if it does not exist; if it exists, you see what changes before
        its rubric is replaced.
      </p>
      <FilePicker
        label="Paper folder"
        buttonText="Choose folder…"
        directory
        chosen={folder}
        disabled={flow.pending !== null}
        onFiles={pick}
        testId="import-folder"
      />
      {flow.pending && (
        <p className="text-sm text-zinc-600" role="status">
          {flow.pending === "preview" ? "Reading the folder…" : "Importing…"}
        </p>
      )}
      <IssueList items={flow.errors} tone="error" testId="import-errors" />
      {flow.asking && (
        <ReplaceRubricDialog
          asking={flow.asking}
          pending={flow.pending === "import"}
          onConfirm={flow.confirm}
          onCancel={flow.cancel}
        />
      )}
    </aside>
  );
}
