"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import type { SuggestionAnswer } from "@/lib/judge/lab/calibration";
import type { AddendumVersionView, CalibrationView } from "@/lib/judge/lab/types";
import type { JudgeConfigView } from "@/lib/judge/views";
import { usd } from "./format";

/**
 * "Suggest addendum text" through a chosen configuration, the suggestions with the overrides behind
 * each (hover highlights them), the text to accept (the current addendum plus the suggestions
 * taken, editable), and once accepted the text before and after.
 */
export function AddendumEditor({
  calibration,
  configs,
  onHighlight,
}: {
  calibration: CalibrationView;
  configs: JudgeConfigView[];
  onHighlight: (ids: ReadonlySet<string>) => void;
}) {
  const queryClient = useQueryClient();
  const [configId, setConfigId] = useState("");
  const chosenConfig = configId || configs.find((c) => c.isDefault)?.id || configs[0]?.id || "";
  const [text, setText] = useState(calibration.paper.judgeAddendum);
  const [taken, setTaken] = useState<string[]>([]);
  const [accepted, setAccepted] = useState<{ before: string; after: AddendumVersionView } | null>(null);
  const suggest = useMutation({
    mutationFn: () =>
      fetchJson<SuggestionAnswer>(
        `/api/judge-lab/papers/${encodeURIComponent(calibration.paper.id)}/suggestions`,
        jsonInit("POST", { configId: chosenConfig }),
      ),
  });
  const accept = useMutation({
    mutationFn: () =>
      fetchJson<{ before: string; after: AddendumVersionView }>(
        `/api/judge-lab/papers/${encodeURIComponent(calibration.paper.id)}/addendum`,
        jsonInit("POST", { text, overrideIds: [...new Set(taken)], baseVersion: calibration.latestVersion }),
      ),
    onSuccess: (result) => {
      setAccepted(result);
      setTaken([]);
      void refetchAfterChange(queryClient, ["calibration", calibration.paper.id]);
    },
  });
  // The text it replaces becomes a version first when it is not one (the first acceptance, an edit on the paper's page).
  const recorded = calibration.versions.at(-1)?.text === calibration.paper.judgeAddendum;
  const nextVersion = calibration.latestVersion + (recorded ? 1 : 2);
  const take = (s: SuggestionAnswer["suggestions"][number]) => {
    setText((t) => `${t.trimEnd()}${t.trim() ? "\n\n" : ""}${s.text}`);
    setTaken((ids) => [...ids, ...s.overrideIds]);
  };
  return (
    <section className="space-y-3 rounded-lg border border-zinc-200 bg-white p-3" data-testid="addendum-editor">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold text-zinc-800">Judge addendum</h2>
        <span className="text-xs text-zinc-500">
          {calibration.latestVersion === 0 ? "no accepted version yet" : `v${calibration.latestVersion}`}
        </span>
        <select
          className="ml-auto rounded-md border border-zinc-300 px-2 py-1 text-sm"
          value={chosenConfig}
          onChange={(e) => setConfigId(e.target.value)}
          aria-label="Configuration to ask"
        >
          {configs.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.kind === "llm" ? c.model : c.kind})
            </option>
          ))}
        </select>
        <Button
          variant="secondary"
          disabled={!chosenConfig || suggest.isPending || calibration.overrides.length === 0}
          onClick={() => suggest.mutate()}
          data-testid="calibration-suggest"
        >
          {suggest.isPending ? "Asking…" : "Suggest addendum text"}
        </Button>
      </div>
      {suggest.isError && <p className="text-sm text-red-700">{suggest.error.message}</p>}
      {suggest.data && (
        <div className="space-y-2" data-testid="calibration-suggestions">
          <p className="text-xs text-zinc-500">
            {suggest.data.generatedBy === "dummy"
              ? `Built from the reasons alone, without a model (the ${suggest.data.configName} configuration calls none): a placeholder, not a model's suggestion.`
              : `Suggested by ${suggest.data.model} through ${suggest.data.configName} · ${usd(suggest.data.costUsd)}`}
            {suggest.data.notes.length > 0 ? ` · ${suggest.data.notes.join("; ")}` : ""}
          </p>
          {suggest.data.suggestions.map((s, i) => (
            <div
              key={i}
              className="flex items-start gap-2 rounded-md border border-zinc-200 p-2 text-sm"
              onMouseEnter={() => onHighlight(new Set(s.overrideIds))}
              onMouseLeave={() => onHighlight(new Set())}
            >
              <p className="flex-1 whitespace-pre-wrap">{s.text}</p>
              <span className="text-xs text-zinc-500">from {s.overrideIds.length} override(s)</span>
              <Button variant="secondary" onClick={() => take(s)}>
                Add
              </Button>
            </div>
          ))}
        </div>
      )}
      <textarea
        className="h-40 w-full rounded-md border border-zinc-300 p-2 font-mono text-sm"
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label="Judge addendum to accept"
        data-testid="calibration-text"
      />
      <div className="flex items-center gap-2">
        <Button
          disabled={accept.isPending || text === calibration.paper.judgeAddendum}
          onClick={() => accept.mutate()}
          data-testid="calibration-accept"
        >
          Accept as v{nextVersion}
        </Button>
        {accept.isError && <span className="text-sm text-red-700">{accept.error.message}</span>}
      </div>
      {accepted && (
        <div className="grid gap-2 md:grid-cols-2" data-testid="calibration-before-after">
          <div>
            <h3 className="text-xs font-semibold text-zinc-500">Before</h3>
            <pre className="whitespace-pre-wrap rounded bg-zinc-50 p-2 text-xs">{accepted.before || "(empty)"}</pre>
          </div>
          <div>
            <h3 className="text-xs font-semibold text-zinc-500">After (v{accepted.after.version})</h3>
            <pre className="whitespace-pre-wrap rounded bg-emerald-50 p-2 text-xs">{accepted.after.text}</pre>
          </div>
        </div>
      )}
      {calibration.versions.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer text-zinc-700">Versions ({calibration.versions.length})</summary>
          <ol className="mt-1 space-y-1">
            {calibration.versions.map((v) => (
              <li key={v.version}>
                <span className="font-medium">v{v.version}</span> · {new Date(v.createdAt).toLocaleString()}
                {v.note ? ` · ${v.note}` : ""}
                {v.overrideIds.length > 0 ? ` · from ${v.overrideIds.length} override(s)` : ""}
                <pre className="whitespace-pre-wrap rounded bg-zinc-50 p-1 text-xs">{v.text || "(empty)"}</pre>
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
