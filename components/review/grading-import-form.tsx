"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Upload } from "lucide-react";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { ApiClientError, fetchJson } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { buttonClass } from "@/components/ui/button";
import { FilePicker } from "@/components/ui/file-picker";
import { formatPercent } from "@/lib/leaderboard/format";
import { agentNameOf } from "@/lib/submissions/schemas";

interface ImportResult {
  gradingId: string;
  createdAgent: boolean;
  score: number;
  importedScore: number;
  scoreMatchesFile: boolean;
  pinned: "live" | "graded_tree";
  reusedVersion: boolean;
  warnings: { path: string; message: string }[];
  stats: { leaves: number };
}

interface AgentChoice {
  id: string;
  name: string;
}

const ARCHIVE_ACCEPT = ".tgz,.gz,.tar,.zip";
const input =
  "w-full rounded-md border border-zinc-300 bg-white px-2 py-1 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200";

/**
 * Staff import a PaperBench graded tree (`expected_result.json`) or judge output
 * (`grader_output.json`) as a grading of one run of an agent, picked from the list or created from
 * its scaffold and model (named `scaffold · model`, as everywhere in the studio), optionally with
 * the submitted repository. A refused file says where each problem is; nothing is written then.
 */
export function GradingImportForm({ paperId }: { paperId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [archive, setArchive] = useState<File | null>(null);
  const [agentMode, setAgentMode] = useState<"existing" | "new">("existing");
  const [agentName, setAgentName] = useState("");
  const [scaffold, setScaffold] = useState("");
  const [model, setModel] = useState("");
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: () => fetchJson<{ agents: AgentChoice[] }>("/api/agents"),
    enabled: open,
  });
  const list = agents.data?.agents ?? [];
  // No agent yet: the only way is a new one.
  const mode = agents.isSuccess && list.length === 0 ? "new" : agentMode;
  const importing = useMutation({
    mutationFn: (data: FormData) =>
      fetchJson<ImportResult>(`/api/papers/${encodeURIComponent(paperId)}/gradings`, { method: "POST", body: data }),
    onSuccess: (result) => {
      setFile(null);
      setArchive(null);
      void refetchAfterChange(queryClient, ["paper-gradings", paperId]);
      if (result.createdAgent) void refetchAfterChange(queryClient, ["agents"]);
    },
  });

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!file) return;
    const data = new FormData(e.currentTarget);
    data.set("file", file);
    if (archive) data.set("submission", archive);
    if (mode === "new") {
      data.set("agent", agentNameOf(scaffold, model));
      data.set("agentScaffold", scaffold);
      data.set("agentModel", model);
    } else data.set("agent", agentName);
    importing.mutate(data);
  }

  if (!open) {
    return (
      <button
        type="button"
        className={buttonClass("secondary", "text-xs")}
        onClick={() => setOpen(true)}
        data-testid="grading-import-open"
      >
        <Upload size={14} aria-hidden /> Import a grading
      </button>
    );
  }
  const error = importing.error instanceof ApiClientError ? importing.error : null;
  const result = importing.data;
  const newName = scaffold.trim() && model.trim() ? agentNameOf(scaffold, model) : null;
  return (
    <form
      onSubmit={submit}
      className="mb-4 space-y-3 rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm"
      data-testid="grading-import-form"
    >
      <div className="space-y-1">
        <span className="block text-xs font-medium text-zinc-700">Graded tree or judge output (JSON)</span>
        <FilePicker
          label="Graded tree or judge output"
          buttonText="Choose file…"
          accept=".json,application/json"
          chosen={file?.name ?? null}
          onFiles={(f) => setFile(f[0])}
          testId="grading-import-file"
        />
      </div>

      <fieldset className="space-y-2" data-testid="grading-import-agent-fields">
        <legend className="text-xs font-medium text-zinc-700">Agent</legend>
        <div className="flex gap-4 text-xs" role="radiogroup">
          <label className="flex items-center gap-1.5">
            <input
              type="radio"
              name="agentMode"
              checked={mode === "existing"}
              disabled={list.length === 0}
              onChange={() => setAgentMode("existing")}
              data-testid="grading-import-agent-existing"
            />
            An existing agent
          </label>
          <label className="flex items-center gap-1.5">
            <input
              type="radio"
              name="agentMode"
              checked={mode === "new"}
              onChange={() => setAgentMode("new")}
              data-testid="grading-import-agent-new"
            />
            A new agent
          </label>
        </div>
        {mode === "existing" ? (
          <select
            aria-label="Agent"
            required
            value={agentName}
            onChange={(e) => setAgentName(e.target.value)}
            className={input}
            data-testid="grading-import-agent"
          >
            <option value="">{agents.isPending ? "Loading the agents…" : "Choose an agent"}</option>
            {list.map((a) => (
              <option key={a.id} value={a.name}>
                {a.name}
              </option>
            ))}
          </select>
        ) : (
          <div className="grid grid-cols-2 gap-3">
            <label className="space-y-1">
              <span className="block text-xs text-zinc-600">Name (the scaffold)</span>
              <input
                required
                value={scaffold}
                onChange={(e) => setScaffold(e.target.value)}
                placeholder="BasicAgent"
                className={input}
                data-testid="grading-import-agent-name"
              />
            </label>
            <label className="space-y-1">
              <span className="block text-xs text-zinc-600">Model</span>
              <input
                required
                value={model}
                onChange={(e) => setModel(e.target.value)}
                placeholder="o1"
                className={input}
                data-testid="grading-import-agent-model"
              />
            </label>
            <p className="col-span-2 text-xs text-zinc-500" data-testid="grading-import-agent-preview">
              {newName ? (
                <>
                  Listed as <span className="font-medium text-zinc-800">{newName}</span>
                  {list.some((a) => a.name === newName) ? " (this agent exists: the run is added to it)" : ""}
                </>
              ) : (
                "Agents are listed as name · model, for example BasicAgent · o1."
              )}
            </p>
          </div>
        )}
      </fieldset>

      <div className="grid grid-cols-2 gap-3">
        <label className="space-y-1">
          <span className="block text-xs font-medium text-zinc-700">Run</span>
          <input
            name="run"
            type="number"
            min={1}
            defaultValue={1}
            required
            className={input}
            data-testid="grading-import-run"
          />
        </label>
        <label className="space-y-1">
          <span className="block text-xs font-medium text-zinc-700">Variant</span>
          <select name="variant" defaultValue="full" className={input}>
            <option value="full">Full</option>
            <option value="code-dev">Code-Dev</option>
          </select>
        </label>
        <label className="col-span-2 flex items-center gap-2">
          <input name="human" type="checkbox" value="true" data-testid="grading-import-human" />
          <span className="text-xs text-zinc-700">Graded by a person (a human grading)</span>
        </label>
      </div>
      <div className="space-y-1">
        <span className="block text-xs font-medium text-zinc-700">
          Submitted repository (optional: .tar.gz, .tar or .zip)
        </span>
        <FilePicker
          label="Submitted repository"
          buttonText="Choose archive…"
          accept={ARCHIVE_ACCEPT}
          chosen={archive?.name ?? null}
          onFiles={(f) => setArchive(f[0])}
          testId="grading-import-archive"
        />
      </div>
      {error && (
        <div
          role="alert"
          className="rounded border border-red-200 bg-red-50 p-2 text-xs text-red-800"
          data-testid="grading-import-error"
        >
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
        <p
          role="status"
          className="rounded border border-emerald-200 bg-emerald-50 p-2 text-xs text-emerald-900"
          data-testid="grading-import-result"
        >
          Imported {result.stats.leaves.toLocaleString("en")} leaves, root score{" "}
          <span className="font-semibold" data-testid="grading-import-score">
            {formatPercent(result.score, 2)}
          </span>
          {result.scoreMatchesFile
            ? " (equal to the file's)"
            : ` (the file said ${formatPercent(result.importedScore, 2)})`}
          ;{" "}
          {result.pinned === "live"
            ? "graded against the current rubric"
            : `the graded tree became ${result.reusedVersion ? "an existing" : "a new"} rubric version`}
          .{" "}
          <Link href={`/gradings/${result.gradingId}`} className="font-medium underline">
            Open it
          </Link>
          {result.warnings.length > 0 &&
            ` ${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"}: ${result.warnings
              .slice(0, 3)
              .map((w) => `${w.path}: ${w.message}`)
              .join("; ")}`}
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          className={buttonClass("primary", "text-xs")}
          disabled={importing.isPending || !file}
          data-testid="grading-import-submit"
        >
          {importing.isPending ? "Importing…" : "Import"}
        </button>
        <button type="button" className={buttonClass("ghost", "text-xs")} onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </form>
  );
}
