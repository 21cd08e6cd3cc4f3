"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { ApiClientError } from "@/components/api/client";
import { uploadFileWithProgress } from "@/components/submissions/upload-with-progress";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { FilePicker } from "@/components/ui/file-picker";
import { ProgressBar } from "@/components/ui/progress-bar";
import { formatBytes } from "@/lib/bytes";
import { AgentPicker } from "./agent-picker";

/**
 * PaperBench's graded results (`runs/<run_group>/<run_id>/grade.json` and its submissions) as one
 * archive, through the existing ingest (`POST /api/evaluations/ingest`): a new evaluation of the agent.
 */
export function IngestResultsForm({ onDone, onCancel }: { onDone(evaluationId: string): void; onCancel(): void }) {
  const [agent, setAgent] = useState("");
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const onAgent = useCallback((value: string) => setAgent(value), []);
  const ingest = useMutation({
    mutationFn: (archive: File) => {
      abort.current = new AbortController();
      const query = new URLSearchParams({ agent });
      if (name.trim()) query.set("name", name.trim());
      setProgress(0);
      return uploadFileWithProgress<{ evaluationId: string }>(
        `/api/evaluations/ingest?${query}`,
        archive,
        setProgress,
        abort.current.signal,
      );
    },
    onSuccess: (answer) => onDone(answer.evaluationId),
  });
  const error = ingest.error instanceof ApiClientError ? ingest.error : null;
  const fieldError = (path: string) => error?.details.find((d) => d.path === path)?.message;
  return (
    <form
      className="space-y-3"
      data-testid="ingest-results-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (file) ingest.mutate(file);
      }}
    >
      <p className="text-sm text-zinc-700">
        An archive of PaperBench&apos;s <code>runs/</code> folder with its <code>grade.json</code> files: each run group
        is a run of the agent, the judge&apos;s grades are imported as they are.
      </p>
      <AgentPicker onChange={onAgent} error={fieldError("agent")} testId="ingest-agent" />
      <Field label="Name (optional)" error={fieldError("name")}>
        <Input value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <FilePicker
        label="Runs archive"
        buttonText="Choose archive"
        accept=".tar.gz,.tgz,.tar,.zip"
        chosen={file && `${file.name} (${formatBytes(file.size)})`}
        onFiles={([f]) => setFile(f)}
        testId="ingest-archive"
      />
      {ingest.isPending && (
        <div className="flex items-center gap-2 text-xs text-zinc-600">
          <ProgressBar value={progress} total={1} className="h-1.5 flex-1 bg-zinc-200" barClassName="bg-indigo-500" />
          {progress < 1 ? `${Math.round(progress * 100)}%` : "importing…"}
        </div>
      )}
      <FormError error={ingest.error?.message} />
      <div className="flex gap-2">
        <Button type="submit" disabled={!file || !agent || ingest.isPending} data-testid="ingest-results">
          Ingest
        </Button>
        <Button variant="ghost" onClick={() => (ingest.isPending ? abort.current?.abort() : onCancel())}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
