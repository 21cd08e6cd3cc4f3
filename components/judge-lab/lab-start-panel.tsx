"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { Variant } from "@/lib/grading/variant";
import { DEFAULT_LAB_VARIANT } from "@/lib/judge/lab/schemas";
import type { LabSubmission } from "@/lib/judge/lab/types";
import { useJudgeConfigs, useStartLab } from "./use-judge-lab";

function toggled(set: ReadonlySet<string>, ids: readonly string[], on: boolean): Set<string> {
  const next = new Set(set);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

const VARIANT_CHOICES: readonly { value: Variant; label: string; hint: string }[] = [
  { value: "code-dev", label: "Code-Dev", hint: "the submitted code (every submission with files)" },
  { value: "full", label: "Full", hint: "each reproduction's outputs (reproduce the submissions first)" },
];

/** Choose configurations, human-labelled submissions and the variant, and start one run per configuration and submission. */
export function LabStartPanel({
  submissions,
  onStarted,
}: {
  submissions: LabSubmission[];
  onStarted: (labId: string) => void;
}) {
  const configs = useJudgeConfigs();
  const [configIds, setConfigIds] = useState<ReadonlySet<string>>(new Set());
  const [submissionIds, setSubmissionIds] = useState<ReadonlySet<string>>(new Set());
  const [name, setName] = useState("");
  const [variant, setVariant] = useState<Variant>(DEFAULT_LAB_VARIANT);
  const start = useStartLab(onStarted);
  const papers = [...new Set(submissions.map((s) => s.paperId))];
  const runs = configIds.size * submissionIds.size;
  return (
    <div
      className="grid gap-4 rounded-lg border border-zinc-200 bg-white p-4 md:grid-cols-2"
      data-testid="judge-lab-start"
    >
      <fieldset>
        <legend className="text-sm font-semibold text-zinc-800">Judge configurations</legend>
        {configs.data?.length === 0 && (
          <p className="text-sm text-zinc-500">No configurations yet: add one on the Judge page.</p>
        )}
        <ul className="mt-1 space-y-1 text-sm">
          {configs.data?.map((c) => (
            <li key={c.id}>
              <label className={`flex items-center gap-2 ${c.ready ? "" : "text-zinc-400"}`}>
                <input
                  type="checkbox"
                  disabled={!c.ready}
                  checked={configIds.has(c.id)}
                  onChange={(e) => setConfigIds(toggled(configIds, [c.id], e.target.checked))}
                />
                {c.name} <span className="text-xs text-zinc-500">{c.kind === "llm" ? c.model : c.kind}</span>
                {c.isDefault && <span className="rounded bg-amber-100 px-1 text-xs text-amber-800">default</span>}
                {!c.ready && <span className="text-xs">({c.apiKeyEnv} not set)</span>}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-semibold text-zinc-800">Human-labelled submissions</legend>
        {submissions.length === 0 && (
          <p className="text-sm text-zinc-500">No submission has a human grading or a complete review yet.</p>
        )}
        <div className="mt-1 max-h-64 space-y-2 overflow-auto text-sm">
          {papers.map((paperId) => {
            const ofPaper = submissions.filter((s) => s.paperId === paperId);
            const all = ofPaper.every((s) => submissionIds.has(s.submissionId));
            return (
              <div key={paperId}>
                <label className="flex items-center gap-2 font-medium">
                  <input
                    type="checkbox"
                    checked={all}
                    onChange={(e) =>
                      setSubmissionIds(
                        toggled(
                          submissionIds,
                          ofPaper.map((s) => s.submissionId),
                          e.target.checked,
                        ),
                      )
                    }
                  />
                  {ofPaper[0].paperTitle} <span className="text-xs font-normal text-zinc-500">{paperId}</span>
                </label>
                <ul className="ml-6">
                  {ofPaper.map((s) => (
                    <li key={s.submissionId}>
                      <label className="flex items-center gap-2">
                        <input
                          type="checkbox"
                          checked={submissionIds.has(s.submissionId)}
                          onChange={(e) => setSubmissionIds(toggled(submissionIds, [s.submissionId], e.target.checked))}
                        />
                        {s.agentName} · run {s.runIndex}
                        {s.variant === "code-dev" ? " · Code-Dev" : ""}
                        <span className="text-xs text-zinc-500">
                          {s.truth === "human_grading" ? "human grading" : "complete review"}
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </div>
      </fieldset>
      <fieldset className="md:col-span-2" data-testid="judge-lab-variant">
        <legend className="text-sm font-semibold text-zinc-800">Grade</legend>
        <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-sm">
          {VARIANT_CHOICES.map((c) => (
            <label key={c.value} className="flex items-center gap-2">
              <input
                type="radio"
                name="judge-lab-variant"
                value={c.value}
                checked={variant === c.value}
                onChange={() => setVariant(c.value)}
              />
              {c.label} <span className="text-xs text-zinc-500">{c.hint}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-2 md:col-span-2">
        <input
          className="rounded-md border border-zinc-300 px-2 py-1 text-sm"
          placeholder="Lab name (optional)"
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
        />
        <Button
          disabled={runs === 0 || start.isPending}
          onClick={() =>
            start.mutate({
              name: name.trim() || undefined,
              variant,
              configIds: [...configIds],
              submissionIds: [...submissionIds],
            })
          }
          data-testid="judge-lab-start-button"
        >
          Start {runs > 0 ? `${runs} run${runs === 1 ? "" : "s"}` : "runs"}
        </Button>
        {start.isError && <span className="text-sm text-red-700">{start.error.message}</span>}
      </div>
    </div>
  );
}
