"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ApiClientError } from "@/components/api/client";
import { uploadFileWithProgress } from "@/components/submissions/upload-with-progress";
import { Button } from "@/components/ui/button";
import { FilePicker } from "@/components/ui/file-picker";
import { ProgressBar } from "@/components/ui/progress-bar";
import { formatBytes } from "@/lib/bytes";
import { MANIFEST_FILE } from "@/lib/evaluations/bulk-manifest";
import { tarBlob, type TarEntry } from "@/lib/submissions/tar-writer";

export interface BulkUploadAnswer {
  evaluationId: string;
  layout: string;
  cells: { paperId: string; run: number; submissionId: string; source: string }[];
  skipped: { where: string; reason: string }[];
}

type Mode = "archive" | "folder" | "manifest";

/** A picked folder's files under paths relative to the folder itself (the browser prefixes its name). */
function folderEntries(files: File[]): TarEntry[] {
  return files.map((f) => {
    const rel = f.webkitRelativePath || f.name;
    return { path: rel.includes("/") ? rel.slice(rel.indexOf("/") + 1) : rel, data: f, mtimeMs: f.lastModified };
  });
}

/** What is sent: an archive as it is, else a tar built here of the folder (with the manifest at its root). */
function uploadBody(mode: Mode, archive: File | null, folder: File[], manifest: File | null): File | null {
  if (mode === "archive") return archive;
  if (folder.length === 0 || (mode === "manifest" && !manifest)) return null;
  const entries = folderEntries(folder).filter((e) => mode !== "manifest" || e.path !== MANIFEST_FILE);
  if (mode === "manifest" && manifest) entries.unshift({ path: MANIFEST_FILE, data: manifest, mtimeMs: manifest.lastModified });
  return new File([tarBlob(entries)], "upload.tar", { type: "application/x-tar" });
}

const LAYOUTS = (
  <ul className="ml-4 list-disc text-xs text-zinc-600">
    <li>
      PaperBench&apos;s run output without grades: <code>&lt;run_group&gt;/&lt;paper&gt;_&lt;uuid&gt;/submissions/&lt;timestamp&gt;/submission.tar.gz</code> (each run group, by name, is a run)
    </li>
    <li>
      <code>&lt;paper&gt;/&lt;run&gt;/submission/</code> folders (run = 1…N)
    </li>
    <li>
      a <code>manifest.csv</code> with the header <code>paper_id,run,path</code>, paths relative to the upload&apos;s root
    </li>
  </ul>
);

/**
 * The second step: fill the evaluation by bulk upload (`POST /api/evaluations/<id>/submissions`)
 * from an archive, a picked folder, or a manifest CSV with the folder it names. Progress while it
 * is sent; a refusal lists every problem with where it is (nothing is written then).
 */
export function BulkUploadStep({ evaluationId, onDone, onSkip }: { evaluationId: string; onDone(answer: BulkUploadAnswer): void; onSkip(): void }) {
  const [mode, setMode] = useState<Mode>("archive");
  const [archive, setArchive] = useState<File | null>(null);
  const [folder, setFolder] = useState<File[]>([]);
  const [manifest, setManifest] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const body = uploadBody(mode, archive, folder, manifest);

  const upload = useMutation({
    mutationFn: (file: File) => {
      abort.current = new AbortController();
      setProgress(0);
      return uploadFileWithProgress<BulkUploadAnswer>(`/api/evaluations/${evaluationId}/submissions`, file, setProgress, abort.current.signal);
    },
    onSuccess: onDone,
  });
  const error = upload.error instanceof ApiClientError ? upload.error : null;
  const folderLabel = folder.length > 0 ? `${(folder[0].webkitRelativePath || folder[0].name).split("/")[0]} (${folder.length} files)` : null;

  return (
    <form
      className="space-y-3"
      data-testid="bulk-upload-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (body) upload.mutate(body);
      }}
    >
      <div className="text-sm text-zinc-700">Upload the submissions in one of these shapes; every cell is checked before anything is stored.</div>
      {LAYOUTS}
      <div className="flex gap-4 text-sm" role="radiogroup" aria-label="What to upload">
        {(
          [
            ["archive", "An archive"],
            ["folder", "A folder"],
            ["manifest", "A manifest CSV + its folder"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-1.5">
            <input type="radio" checked={mode === value} onChange={() => setMode(value)} data-testid={`bulk-mode-${value}`} /> {label}
          </label>
        ))}
      </div>
      {mode === "archive" && (
        <FilePicker label="Submissions archive" buttonText="Choose archive" accept=".tar.gz,.tgz,.tar,.zip" chosen={archive && `${archive.name} (${formatBytes(archive.size)})`} onFiles={([f]) => setArchive(f)} testId="bulk-archive" />
      )}
      {mode === "manifest" && <FilePicker label="Manifest CSV" buttonText="Choose manifest" accept=".csv,text/csv" chosen={manifest?.name ?? null} onFiles={([f]) => setManifest(f)} testId="bulk-manifest" />}
      {mode !== "archive" && <FilePicker label="Submissions folder" buttonText="Choose folder" directory chosen={folderLabel} onFiles={setFolder} testId="bulk-folder" />}
      {upload.isPending && (
        <div className="flex items-center gap-2 text-xs text-zinc-600" data-testid="bulk-upload-progress">
          <ProgressBar value={progress} total={1} className="h-1.5 flex-1 bg-zinc-200" barClassName="bg-indigo-500" />
          {progress < 1 ? `${Math.round(progress * 100)}%` : "checking every cell…"}
        </div>
      )}
      {upload.error && (
        <div role="alert" className="space-y-1 rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800" data-testid="bulk-upload-error">
          <p>{error && error.details.length > 0 ? `Nothing was uploaded: ${error.details.length} problem${error.details.length === 1 ? "" : "s"}` : upload.error.message}</p>
          {error && error.details.length > 0 && (
            <ul className="ml-4 list-disc">
              {error.details.map((d, i) => (
                <li key={i}>
                  <code>{d.path}</code>: {d.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={!body || upload.isPending} data-testid="bulk-upload">
          Upload
        </Button>
        <Button variant="ghost" onClick={() => (upload.isPending ? abort.current?.abort() : onSkip())}>
          {upload.isPending ? "Cancel" : "Later: go to the evaluation"}
        </Button>
      </div>
    </form>
  );
}
