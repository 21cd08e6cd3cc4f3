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
import { runsWithoutReproduceScript } from "@/lib/evaluations/missing-reproduce-script";
import { folderEntries, hasReproduceScript } from "@/components/submissions/pack-folder";
import { tarBlob, type TarEntry } from "@/lib/submissions/tar-writer";

export interface BulkUploadAnswer {
  evaluationId: string;
  layout: string;
  cells: { paperId: string; run: number; submissionId: string; source: string }[];
  skipped: { where: string; reason: string }[];
}

type Mode = "archive" | "folder" | "manifest";

/** One paper × run of the evaluation, uploaded (again) on its own. */
export interface UploadCell {
  paperId: string;
  run: number;
}

/**
 * One cell's upload in the bulk upload's `<paper>/<run>/` layout, packed here: the folder as
 * `submission/`, the archive as `submission.tar.gz`. So a cell goes through the same endpoint and
 * checks as a whole evaluation's upload.
 */
function cellBody(cell: UploadCell, mode: Mode, archive: File | null, folder: File[]): File | null {
  const at = `${cell.paperId}/${cell.run}`;
  const entries: TarEntry[] =
    mode === "archive"
      ? archive
        ? [{ path: `${at}/submission.tar.gz`, data: archive, mtimeMs: archive.lastModified }]
        : []
      : folderEntries(folder).map((e) => ({ ...e, path: `${at}/submission/${e.path}` }));
  return entries.length > 0 ? new File([tarBlob(entries)], "upload.tar", { type: "application/x-tar" }) : null;
}

/** What is sent: an archive as it is, else a tar built here of the folder (with the manifest at its root). */
function uploadBody(mode: Mode, archive: File | null, folder: File[], manifest: File | null): File | null {
  if (mode === "archive") return archive;
  if (folder.length === 0 || (mode === "manifest" && !manifest)) return null;
  const entries = folderEntries(folder).filter((e) => mode !== "manifest" || e.path !== MANIFEST_FILE);
  if (mode === "manifest" && manifest)
    entries.unshift({ path: MANIFEST_FILE, data: manifest, mtimeMs: manifest.lastModified });
  return new File([tarBlob(entries)], "upload.tar", { type: "application/x-tar" });
}

const LAYOUTS = (
  <ul className="ml-4 list-disc text-xs text-zinc-600">
    <li>
      PaperBench&apos;s run output without grades:{" "}
      <code>&lt;run_group&gt;/&lt;paper&gt;_&lt;uuid&gt;/submissions/&lt;timestamp&gt;/submission.tar.gz</code> (each
      run group, by name, is a run)
    </li>
    <li>
      <code>&lt;paper&gt;/&lt;run&gt;/submission/</code> folders (run = 1…N)
    </li>
    <li>
      a <code>manifest.csv</code> with the header <code>paper_id,run,path</code>, paths relative to the upload&apos;s
      root
    </li>
  </ul>
);

/**
 * Fill the evaluation by bulk upload (`POST /api/evaluations/<id>/submissions`) from an archive, a
 * picked folder, or a manifest CSV with the folder it names: the new-evaluation dialog's second
 * step and the evaluation page's upload. With `cell`, one run's submission (folder or .tar.gz),
 * replacing what it has; with `replaceOption`, a box to send runs already uploaded again.
 * Progress while it is sent; a refusal lists every problem with where it is (nothing is written then).
 */
export function BulkUploadStep({
  evaluationId,
  onDone,
  onSkip,
  cell,
  replaceOption = false,
}: {
  evaluationId: string;
  onDone(answer: BulkUploadAnswer): void;
  /** The new-evaluation dialog's "Later"; without it the button only cancels an upload under way. */
  onSkip?(): void;
  cell?: UploadCell;
  replaceOption?: boolean;
}) {
  const [mode, setMode] = useState<Mode>(cell ? "folder" : "archive");
  const [archive, setArchive] = useState<File | null>(null);
  const [folder, setFolder] = useState<File[]>([]);
  const [manifest, setManifest] = useState<File | null>(null);
  const [replaceChosen, setReplaceChosen] = useState(false);
  const [progress, setProgress] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const body = cell ? cellBody(cell, mode, archive, folder) : uploadBody(mode, archive, folder, manifest);
  // A cell's upload is its re-upload: whatever the run holds is replaced.
  const replace = cell !== undefined || replaceChosen;

  const upload = useMutation({
    mutationFn: (file: File) => {
      abort.current = new AbortController();
      setProgress(0);
      return uploadFileWithProgress<BulkUploadAnswer>(
        `/api/evaluations/${evaluationId}/submissions${replace ? "?replace=1" : ""}`,
        file,
        setProgress,
        abort.current.signal,
      );
    },
    onSuccess: onDone,
  });
  const error = upload.error instanceof ApiClientError ? upload.error : null;
  // Told before sending: a run without reproduce.sh cannot be reproduced (a warning: Code-Dev needs none).
  const picked = mode === "folder" ? folder : [];
  const withoutScript = cell
    ? picked.length > 0 && !hasReproduceScript(picked)
      ? [`run ${cell.run}`]
      : []
    : runsWithoutReproduceScript(folderEntries(picked).map((e) => e.path));
  const folderLabel =
    folder.length > 0
      ? `${(folder[0].webkitRelativePath || folder[0].name).split("/")[0]} (${folder.length} files)`
      : null;

  return (
    <form
      className="space-y-3"
      data-testid="bulk-upload-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (body) upload.mutate(body);
      }}
    >
      {cell ? (
        <div className="text-sm text-zinc-700" data-testid="cell-upload-intro">
          The submission of run {cell.run} of <code className="font-mono text-xs">{cell.paperId}</code>: its folder
          (packed here) or its <code>.tar.gz</code>. It replaces the archive the run has, and the cell is reproduced and
          judged again.
        </div>
      ) : (
        <>
          <div className="text-sm text-zinc-700">
            Upload the submissions in one of these shapes; every cell is checked before anything is stored.
          </div>
          {LAYOUTS}
        </>
      )}
      <div className="flex gap-4 text-sm" role="radiogroup" aria-label="What to upload">
        {(cell
          ? ([
              ["folder", "A folder"],
              ["archive", "A .tar.gz"],
            ] as const)
          : ([
              ["archive", "An archive"],
              ["folder", "A folder"],
              ["manifest", "A manifest CSV + its folder"],
            ] as const)
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-1.5">
            <input
              type="radio"
              checked={mode === value}
              onChange={() => setMode(value)}
              data-testid={`bulk-mode-${value}`}
            />{" "}
            {label}
          </label>
        ))}
      </div>
      {mode === "archive" && (
        <FilePicker
          label={cell ? "Submission archive" : "Submissions archive"}
          buttonText="Choose archive"
          accept={cell ? ".tar.gz,.tgz" : ".tar.gz,.tgz,.tar,.zip"}
          chosen={archive && `${archive.name} (${formatBytes(archive.size)})`}
          onFiles={([f]) => setArchive(f)}
          testId="bulk-archive"
        />
      )}
      {mode === "manifest" && (
        <FilePicker
          label="Manifest CSV"
          buttonText="Choose manifest"
          accept=".csv,text/csv"
          chosen={manifest?.name ?? null}
          onFiles={([f]) => setManifest(f)}
          testId="bulk-manifest"
        />
      )}
      {mode !== "archive" && (
        <FilePicker
          label={cell ? "Submission folder" : "Submissions folder"}
          buttonText="Choose folder"
          directory
          chosen={folderLabel}
          onFiles={setFolder}
          testId="bulk-folder"
        />
      )}
      {withoutScript.length > 0 && (
        <div
          role="status"
          className="rounded-md border border-amber-200 bg-amber-50 p-2 text-xs text-amber-900"
          data-testid="bulk-missing-reproduce"
        >
          <p>
            No <code>reproduce.sh</code> at the submission&apos;s root in{" "}
            {withoutScript.length === 1 ? "this run" : `${withoutScript.length} runs`}:{" "}
            {withoutScript.length === 1 ? "its" : "their"} reproduction fails, so in the full variant{" "}
            {withoutScript.length === 1 ? "its" : "their"} execution and results leaves score 0.
          </p>
          <p className="mt-1 font-mono">{withoutScript.join(", ")}</p>
        </div>
      )}
      {replaceOption && !cell && (
        <label className="flex items-center gap-1.5 text-sm text-zinc-700">
          <input
            type="checkbox"
            checked={replaceChosen}
            onChange={(e) => setReplaceChosen(e.target.checked)}
            data-testid="bulk-replace"
          />{" "}
          Replace runs already uploaded (they are reproduced and judged again)
        </label>
      )}
      {upload.isPending && (
        <div className="flex items-center gap-2 text-xs text-zinc-600" data-testid="bulk-upload-progress">
          <ProgressBar value={progress} total={1} className="h-1.5 flex-1 bg-zinc-200" barClassName="bg-indigo-500" />
          {progress < 1 ? `${Math.round(progress * 100)}%` : "checking every cell…"}
        </div>
      )}
      {upload.error && (
        <div
          role="alert"
          className="space-y-1 rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800"
          data-testid="bulk-upload-error"
        >
          <p>
            {error && error.details.length > 0
              ? `Nothing was uploaded: ${error.details.length} problem${error.details.length === 1 ? "" : "s"}`
              : upload.error.message}
          </p>
          {error && error.details.length > 0 && (
            <ul className="ml-4 list-disc">
              {error.details.map((d, i) => (
                <li key={i}>
                  <code>{d.path}</code>: {d.message}
                </li>
              ))}
            </ul>
          )}
          {error?.status === 409 && replaceOption && !cell && (
            <p>To send those runs again, tick “Replace runs already uploaded”.</p>
          )}
        </div>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={!body || upload.isPending} data-testid="bulk-upload">
          Upload
        </Button>
        {(upload.isPending || onSkip) && (
          <Button variant="ghost" onClick={() => (upload.isPending ? abort.current?.abort() : onSkip?.())}>
            {upload.isPending ? "Cancel" : "Later: go to the evaluation"}
          </Button>
        )}
      </div>
    </form>
  );
}
