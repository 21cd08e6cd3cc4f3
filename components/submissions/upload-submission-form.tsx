"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { ApiClientError, fetchJson } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { FilePicker } from "@/components/ui/file-picker";
import { ProgressBar } from "@/components/ui/progress-bar";
import { formatBytes } from "@/lib/bytes";
import { plural } from "@/lib/leaderboard/format";
import { folderName, hasReproduceScript, packFolder } from "./pack-folder";
import { uploadFileWithProgress } from "./upload-with-progress";

interface UploadAnswer {
  submissionId: string;
  jobId?: string;
  files: number;
}

/** Staff upload of one run's repository (.tar.gz, .tar or .zip, or a folder packed here), optionally reproduced at once. */
export function UploadSubmissionForm({ paperId, onDone }: { paperId: string; onDone(): void }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: () => fetchJson<{ agents: { id: string; name: string }[] }>("/api/agents").then((r) => r.agents),
  });
  // An archive as it is, or a folder (packed here as a .tar when sent).
  const [archive, setArchive] = useState<File | null>(null);
  const [folder, setFolder] = useState<File[]>([]);
  const [agent, setAgent] = useState("");
  const [run, setRun] = useState("1");
  const [variant, setVariant] = useState<"full" | "code-dev">("full");
  const [reproduce, setReproduce] = useState(true);
  const [replace, setReplace] = useState(false);
  const [progress, setProgress] = useState(0);
  const abort = useRef<AbortController | null>(null);

  const upload = useMutation({
    mutationFn: (input: File) => {
      abort.current = new AbortController();
      const query = new URLSearchParams({ agent, run, variant, name: input.name });
      if (variant === "full" && reproduce) query.set("reproduce", "1");
      if (replace) query.set("replace", "1");
      setProgress(0);
      return uploadFileWithProgress<UploadAnswer>(
        `/api/papers/${paperId}/submissions?${query}`,
        input,
        setProgress,
        abort.current.signal,
      );
    },
    onSuccess: async (answer) => {
      toast.success(answer.jobId ? "Uploaded; the reproduction is queued" : `Uploaded ${plural(answer.files, "file")}`);
      await refetchAfterChange(queryClient, ["paper-submissions", paperId]);
      onDone();
      if (answer.jobId) router.push(`/submissions/${answer.submissionId}`);
    },
  });
  const error = upload.error instanceof ApiClientError ? upload.error : null;
  const fieldError = (name: string) => error?.details.find((d) => d.path === name)?.message;

  return (
    <form
      className="space-y-3 rounded-md border border-zinc-200 bg-zinc-50 p-4"
      data-testid="upload-submission-form"
      onSubmit={(e) => {
        e.preventDefault();
        const body = archive ?? (folder.length > 0 ? packFolder(folder) : null);
        if (body) upload.mutate(body);
      }}
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <FilePicker
          label="Submission archive"
          buttonText="Choose archive"
          accept=".tar.gz,.tgz,.tar,.zip"
          chosen={archive && `${archive.name} (${formatBytes(archive.size)})`}
          onFiles={([f]) => {
            setArchive(f);
            setFolder([]);
          }}
          testId="submission-archive"
        />
        <span className="text-xs text-zinc-500">or</span>
        <FilePicker
          label="Submission folder"
          buttonText="Choose folder"
          directory
          chosen={
            folder.length > 0
              ? `${folderName(folder)} (${plural(folder.length, "file")}, ${formatBytes(folder.reduce((n, f) => n + f.size, 0))})`
              : null
          }
          onFiles={(files) => {
            setFolder(files);
            setArchive(null);
          }}
          testId="submission-folder"
        />
      </div>
      {folder.length > 0 && !hasReproduceScript(folder) && (
        <p
          role="alert"
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="submission-no-reproduce-sh"
        >
          This folder has no <code>reproduce.sh</code> at its root: a reproduction would have nothing to run (PaperBench
          grades execution and results from what it writes). Pick the repository&apos;s own folder, or upload it as
          Code-Dev.
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-[1fr_6rem_9rem]">
        <Field label="Agent" error={fieldError("agent")}>
          <Input
            value={agent}
            onChange={(e) => setAgent(e.target.value)}
            list={`agents-${paperId}`}
            required
            placeholder="BasicAgent · o3-mini"
            data-testid="submission-agent"
          />
          <datalist id={`agents-${paperId}`}>
            {agents.data?.map((a) => (
              <option key={a.id} value={a.name} />
            ))}
          </datalist>
        </Field>
        <Field label="Run" error={fieldError("run")}>
          <Input
            type="number"
            min={1}
            value={run}
            onChange={(e) => setRun(e.target.value)}
            required
            data-testid="submission-run"
          />
        </Field>
        <Field label="Variant" error={fieldError("variant")}>
          <select
            value={variant}
            onChange={(e) => setVariant(e.target.value as "full" | "code-dev")}
            className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm"
            data-testid="submission-variant"
          >
            <option value="full">full</option>
            <option value="code-dev">code-dev</option>
          </select>
        </Field>
      </div>
      <div className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
        <label className={`flex items-center gap-1.5 ${variant === "code-dev" ? "text-zinc-400" : ""}`}>
          <input
            type="checkbox"
            checked={variant === "full" && reproduce}
            disabled={variant === "code-dev"}
            onChange={(e) => setReproduce(e.target.checked)}
            data-testid="submission-reproduce"
          />
          Reproduce after upload
        </label>
        <label className="flex items-center gap-1.5">
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />
          Replace the run&apos;s archive if it has one
        </label>
      </div>
      {upload.isPending && (
        <div className="flex items-center gap-2 text-xs text-zinc-600" data-testid="upload-progress">
          <ProgressBar value={progress} total={1} className="h-1.5 flex-1 bg-zinc-200" barClassName="bg-indigo-500" />
          {progress < 1 ? `${Math.round(progress * 100)}%` : "checking every entry…"}
        </div>
      )}
      <FormError error={upload.error?.message} />
      <div className="flex gap-2">
        <Button
          type="submit"
          disabled={(!archive && folder.length === 0) || !agent.trim() || upload.isPending}
          data-testid="upload-submission"
        >
          Upload
        </Button>
        <Button variant="ghost" onClick={() => (upload.isPending ? abort.current?.abort() : onDone())}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
