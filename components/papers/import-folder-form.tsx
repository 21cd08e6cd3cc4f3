"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { ApiClientError, fetchJson } from "@/components/api/client";
import type { ErrorDetail } from "@/lib/errors";
import { IssueList } from "./import-result";
import { uploadFormFromFiles } from "./upload-files";

/** Staff: import a PaperBench paper folder (config.yaml + rubric.json + blacklist.txt) as a paper. */
export function ImportFolderForm() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<ErrorDetail[]>([]);

  async function upload(files: FileList | null) {
    if (!files || files.length === 0) return;
    const built = uploadFormFromFiles(files);
    if ("error" in built) {
      toast.error(built.error);
      return;
    }
    setPending(true);
    setErrors([]);
    try {
      const result = await fetchJson<{ paperId: string; stats: { nodes: number } }>("/api/import", {
        method: "POST",
        body: built.form,
      });
      toast.success(`Imported ${result.paperId} (${result.stats.nodes} nodes)`);
      router.push(`/papers/${result.paperId}`);
    } catch (err) {
      if (!(err instanceof ApiClientError)) throw err;
      toast.error(err.message);
      setErrors(err.details);
    } finally {
      setPending(false);
    }
  }

  return (
    <aside className="h-fit space-y-3 rounded-lg border border-zinc-200 bg-white p-5">
      <h2 className="font-semibold">Import a PaperBench folder</h2>
      <p className="text-sm text-zinc-600">
        Pick a paper folder with <code>rubric.json</code>, <code>config.yaml</code> and <code>blacklist.txt</code>. The
        paper is created from <code>config.yaml</code> if it does not exist.
      </p>
      <input
        type="file"
        aria-label="Paper folder"
        disabled={pending}
        // Folder picking is non-standard but supported by every current browser.
        {...({ webkitdirectory: "", directory: "" } as Record<string, string>)}
        onChange={(e) => upload(e.target.files)}
        className="block w-full text-sm"
      />
      {pending && <p className="text-sm text-zinc-600">Importing…</p>}
      <IssueList items={errors} tone="error" testId="import-errors" />
    </aside>
  );
}
