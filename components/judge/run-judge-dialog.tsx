"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { Gavel } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { fetchJson, jsonInit } from "@/components/api/client";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import type { Variant } from "@/lib/grading/variant";
import type { JudgeConfigView, JudgeEstimateAnswer, JudgeRunView } from "@/lib/judge/views";
import { formatSeconds, formatTokens, formatUsd } from "./format";

/** Which submissions a dialog judges: a selection, or every run of an agent on a paper. */
export type JudgeTarget = { submissionIds: string[] } | { paperId: string; agentId: string };

/** "Run judge" (staff): a configuration (the default preselected), the variant, a max depth, the live estimate, Confirm. */
export function RunJudgeButton({
  target,
  defaultVariant,
  label = "Run judge",
  onStarted,
}: {
  target: JudgeTarget;
  defaultVariant: Variant;
  label?: string;
  onStarted?(runs: JudgeRunView[]): void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} data-testid="run-judge">
        <Gavel size={14} aria-hidden /> {label}
      </Button>
      {open && (
        <RunJudgeDialog
          target={target}
          defaultVariant={defaultVariant}
          onClose={() => setOpen(false)}
          onStarted={onStarted}
        />
      )}
    </>
  );
}

function RunJudgeDialog({
  target,
  defaultVariant,
  onClose,
  onStarted,
}: {
  target: JudgeTarget;
  defaultVariant: Variant;
  onClose(): void;
  onStarted?(runs: JudgeRunView[]): void;
}) {
  const configs = useQuery({
    queryKey: ["judge-configs"],
    queryFn: () => fetchJson<{ configs: JudgeConfigView[] }>("/api/judge/configs").then((r) => r.configs),
  });
  const [picked, setPicked] = useState<string | null>(null);
  const [variant, setVariant] = useState<Variant>(defaultVariant);
  const [depth, setDepth] = useState("");
  const configId = picked ?? configs.data?.find((c) => c.isDefault)?.id ?? configs.data?.[0]?.id ?? null;
  const config = configs.data?.find((c) => c.id === configId) ?? null;
  const maxDepth = depth.trim() === "" ? null : Number(depth);
  const body = { ...target, configId, variant, maxDepth };
  const estimate = useQuery({
    queryKey: ["judge-estimate", body],
    queryFn: () => fetchJson<JudgeEstimateAnswer>("/api/judge/estimate", jsonInit("POST", body)),
    enabled: configId !== null && (maxDepth === null || Number.isInteger(maxDepth)),
    retry: false,
  });
  const start = useMutation({
    mutationFn: () => fetchJson<{ runs: JudgeRunView[] }>("/api/judge/runs", jsonInit("POST", body)),
    onSuccess: (answer) => {
      onStarted?.(answer.runs);
      onClose();
    },
  });
  const total = estimate.data?.total;
  return (
    <Dialog onClose={onClose} title="Run the judge" testId="run-judge-dialog" className="max-w-lg">
      <div className="space-y-3">
        <Field
          label="Judge configuration"
          hint={config && !config.ready ? `${config.apiKeyEnv} is not set on the server` : undefined}
        >
          <select
            value={configId ?? ""}
            onChange={(e) => setPicked(e.target.value)}
            className="h-8 w-full rounded-md border border-zinc-300 bg-white px-2 text-sm"
            data-testid="judge-config"
            aria-label="Judge configuration"
          >
            {configs.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.kind === "llm" ? c.model : c.kind}){c.ready ? "" : " — key not set"}
              </option>
            ))}
          </select>
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Variant">
            <select
              value={variant}
              onChange={(e) => setVariant(e.target.value as Variant)}
              className="h-8 w-full rounded-md border border-zinc-300 bg-white px-2 text-sm"
              data-testid="judge-variant"
              aria-label="Variant"
            >
              <option value="full">Full (after reproduction)</option>
              <option value="code-dev">Code-Dev (the code only)</option>
            </select>
          </Field>
          <Field
            label="Max depth"
            hint="PaperBench's max_depth, root = 1: criteria at this depth are graded whole. Empty: every leaf"
          >
            <Input
              value={depth}
              onChange={(e) => setDepth(e.target.value)}
              inputMode="numeric"
              placeholder="every leaf"
              data-testid="judge-max-depth"
              aria-label="Max depth"
            />
          </Field>
        </div>
        <div
          className="rounded-md border border-zinc-200 bg-zinc-50 p-2 text-xs"
          data-testid="judge-estimate"
          aria-live="polite"
        >
          {estimate.isFetching && !total ? (
            <span className="text-zinc-500">Estimating…</span>
          ) : estimate.isError ? (
            <span className="text-red-700" data-testid="judge-estimate-error">
              {estimate.error.message}
            </span>
          ) : total ? (
            <dl className="grid grid-cols-2 gap-x-4 gap-y-0.5">
              <dt className="text-zinc-500">Runs · leaves</dt>
              <dd className="font-mono">
                {estimate.data!.runs.length} · {total.leaves}
              </dd>
              <dt className="text-zinc-500">Calls</dt>
              <dd className="font-mono" data-testid="judge-estimate-calls">
                {total.calls}
              </dd>
              <dt className="text-zinc-500">Tokens in / cached / out</dt>
              <dd className="font-mono">
                {formatTokens(total.inputTokens)} / {formatTokens(total.cachedInputTokens)} /{" "}
                {formatTokens(total.outputTokens)}
              </dd>
              <dt className="text-zinc-500">Cost</dt>
              <dd className="font-mono" data-testid="judge-estimate-cost">
                {formatUsd(total.costUsd)}
              </dd>
              <dt className="text-zinc-500">Duration</dt>
              <dd className="font-mono">{formatSeconds(total.durationS)}</dd>
            </dl>
          ) : null}
        </div>
        {config?.kind === "llm" && estimate.data && estimate.data.papersWithoutText.length > 0 && (
          <NoPaperTextWarning papers={estimate.data.papersWithoutText} />
        )}
        <FormError error={start.error?.message} />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!total || start.isPending || (config !== null && !config.ready)}
            onClick={() => start.mutate()}
            data-testid="judge-confirm"
          >
            {start.isPending ? "Starting…" : "Confirm"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/** A model judge reads the paper's text; without it, it grades the criteria alone. */
function NoPaperTextWarning({ papers }: { papers: JudgeEstimateAnswer["papersWithoutText"] }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-amber-200 bg-amber-50 p-2 text-xs text-amber-900"
      data-testid="judge-no-paper-text"
    >
      <p>
        {papers.length === 1 ? "This paper has" : "These papers have"} no paper text: the judge will grade without the
        paper, from the rubric and the submission alone. Staff can add the text on the paper page (Edit paper → Paper
        text):
      </p>
      <ul className="mt-1 list-inside list-disc">
        {papers.map((p) => (
          <li key={p.id}>
            <Link
              href={`/papers/${encodeURIComponent(p.id)}/edit`}
              className="font-medium text-indigo-700 hover:underline"
            >
              {p.title}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
