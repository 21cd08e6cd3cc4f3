"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Upload } from "lucide-react";
import Link from "next/link";
import { useRef, useState, type FormEvent } from "react";
import { ApiClientError, fetchJson } from "@/components/api/client";
import { buttonClass } from "@/components/ui/button";

interface ImportResult {
  gradingId: string;
  score: number;
  importedScore: number;
  scoreMatchesFile: boolean;
  pinned: "live" | "graded_tree";
  reusedVersion: boolean;
  warnings: { path: string; message: string }[];
  stats: { leaves: number };
}

/**
 * Staff import a PaperBench graded tree (`expected_result.json`) or judge output
 * (`grader_output.json`) as a grading of one run, optionally with the submitted repository.
 * A refused file says where each problem is; nothing is written then.
 */
export function GradingImportForm({ paperId }: { paperId: string }) {
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const [open, setOpen] = useState(false);
  const importing = useMutation({
    mutationFn: (data: FormData) => fetchJson<ImportResult>(`/api/papers/${encodeURIComponent(paperId)}/gradings`, { method: "POST", body: data }),
    onSuccess: () => {
      form.current?.reset();
      void queryClient.invalidateQueries({ queryKey: ["paper-gradings", paperId] });
    },
  });

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    // An empty file input still sends an empty part: leave the optional archive out then.
    const archive = data.get("submission");
    if (archive instanceof File && archive.size === 0) data.delete("submission");
    importing.mutate(data);
  }

  if (!open) {
    return (
      <button type="button" className={buttonClass("secondary", "text-xs")} onClick={() => setOpen(true)} data-testid="grading-import-open">
        <Upload size={14} aria-hidden /> Import a grading
      </button>
    );
  }
  const error = importing.error instanceof ApiClientError ? importing.error : null;
  const result = importing.data;
  return (
    <form ref={form} onSubmit={submit} className="mb-4 space-y-3 rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm" data-testid="grading-import-form">
      <div className="grid grid-cols-2 gap-3">
        <label className="col-span-2 space-y-1">
          <span className="block text-xs font-medium text-zinc-700">Graded tree or judge output (JSON)</span>
          <input name="file" type="file" accept=".json,application/json" required className="block w-full text-xs" data-testid="grading-import-file" />
        </label>
        <label className="space-y-1">
          <span className="block text-xs font-medium text-zinc-700">Agent</span>
          <input name="agent" required placeholder="o3-mini / BasicAgent" className="w-full rounded border border-zinc-300 px-2 py-1" data-testid="grading-import-agent" />
        </label>
        <label className="space-y-1">
          <span className="block text-xs font-medium text-zinc-700">Run</span>
          <input name="run" type="number" min={1} defaultValue={1} required className="w-full rounded border border-zinc-300 px-2 py-1" data-testid="grading-import-run" />
        </label>
        <label className="space-y-1">
          <span className="block text-xs font-medium text-zinc-700">Variant</span>
          <select name="variant" defaultValue="full" className="w-full rounded border border-zinc-300 px-2 py-1">
            <option value="full">Full</option>
            <option value="code-dev">Code-Dev</option>
          </select>
        </label>
        <label className="flex items-end gap-2 pb-1">
          <input name="human" type="checkbox" value="true" data-testid="grading-import-human" />
          <span className="text-xs text-zinc-700">Graded by a person (a human grading)</span>
        </label>
        <label className="col-span-2 space-y-1">
          <span className="block text-xs font-medium text-zinc-700">Submitted repository (optional: .tar.gz, .tar or .zip)</span>
          <input name="submission" type="file" accept=".tgz,.gz,.tar,.zip" className="block w-full text-xs" />
        </label>
      </div>
      {error && (
        <div role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-xs text-red-800" data-testid="grading-import-error">
          <p className="font-medium">{error.message}</p>
          {error.details.length > 0 && (
            <ul className="mt-1 max-h-32 list-disc overflow-auto pl-4 font-mono">
              {error.details.map((d, i) => (
                <li key={i}>
                  {d.path}: {d.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {result && (
        <p role="status" className="rounded border border-emerald-200 bg-emerald-50 p-2 text-xs text-emerald-900" data-testid="grading-import-result">
          Imported {result.stats.leaves.toLocaleString("en")} leaves, root score {result.score}
          {result.scoreMatchesFile ? " (equal to the file's)" : ` (the file said ${result.importedScore})`};{" "}
          {result.pinned === "live" ? "graded against the current rubric" : `the graded tree became ${result.reusedVersion ? "an existing" : "a new"} rubric version`}.{" "}
          <Link href={`/gradings/${result.gradingId}`} className="font-medium underline">
            Open it
          </Link>
          {result.warnings.length > 0 && ` ${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"}: ${result.warnings.slice(0, 3).map((w) => `${w.path}: ${w.message}`).join("; ")}`}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" className={buttonClass("primary", "text-xs")} disabled={importing.isPending} data-testid="grading-import-submit">
          {importing.isPending ? "Importing…" : "Import"}
        </button>
        <button type="button" className={buttonClass("ghost", "text-xs")} onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </form>
  );
}
