"use client";

import { useQuery } from "@tanstack/react-query";
import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { fetchJson } from "@/components/api/client";
import { Field } from "@/components/ui/field";
import { isPlaceholderJudge } from "@/lib/evaluations/provenance";
import { chooseDefaultJudge } from "@/lib/judge/default-judge-choice";
import type { JudgeConfigView } from "@/lib/judge/views";

const select = "w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm";

function optionLabel(c: JudgeConfigView): string {
  const what = isPlaceholderJudge(c.kind) ? "placeholder judge, not public" : `${c.model} · ${c.mode} mode`;
  return `${c.name} — ${what}${c.ready ? "" : ` (${c.apiKeyEnv ?? "key"} not set)`}`;
}

/**
 * Which judge grades the evaluation. Preselected by the API's own rule (`chooseDefaultJudge`): a
 * model judge in paperbench mode where one is configured, else the first model judge, else a
 * placeholder judge, with a warning that its scores never reach the public leaderboard.
 */
export function JudgeChoiceField({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange(id: string | null): void;
  error?: string;
}) {
  const configs = useQuery({
    queryKey: ["judge-configs"],
    queryFn: () => fetchJson<{ configs: JudgeConfigView[] }>("/api/judge/configs").then((r) => r.configs),
  });
  const list = configs.data ?? [];
  const preselected = configs.data ? (chooseDefaultJudge(configs.data)?.id ?? null) : null;
  useEffect(() => {
    if (value === null && preselected !== null) onChange(preselected);
  }, [value, preselected, onChange]);
  const chosen = list.find((c) => c.id === value) ?? null;
  const placeholder = chosen !== null && isPlaceholderJudge(chosen.kind);
  return (
    <div className="space-y-1.5">
      <Field
        label="Judge"
        error={error}
        hint={
          configs.isLoading
            ? "Loading judge configurations…"
            : list.length === 0
              ? "No judge configuration yet: add one on /judge (the default at judging time is used)"
              : undefined
        }
      >
        <select
          className={select}
          value={value ?? ""}
          onChange={(e) => onChange(e.target.value || null)}
          data-testid="evaluation-judge"
          disabled={list.length === 0}
        >
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {optionLabel(c)}
            </option>
          ))}
        </select>
      </Field>
      {chosen && !placeholder && (
        <p className="text-xs text-zinc-500" data-testid="evaluation-judge-note">
          {chosen.mode === "paperbench"
            ? "PaperBench's own prompts and flow: under PaperBench's default policies its rows are marked “PaperBench method”."
            : "Efficient mode: the studio's prompts; its rows say “efficient mode”, not PaperBench method."}
        </p>
      )}
      {placeholder && (
        <p
          className="flex items-start gap-1.5 rounded-md bg-amber-50 px-2 py-1.5 text-xs text-amber-900"
          role="alert"
          data-testid="evaluation-judge-placeholder-warning"
        >
          <TriangleAlert className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
          {chosen.name} is a placeholder judge ({chosen.kind}): its scores say nothing about the submissions. Members
          see them marked “placeholder judge — not public”; the public leaderboard never shows them.
        </p>
      )}
    </div>
  );
}
