"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { ApiClientError, fetchJson, jsonInit } from "@/components/api/client";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Textarea } from "@/components/ui/field";
import { type CreateEvaluationInput, type EvaluationPolicies } from "@/lib/evaluations/schemas";
import { DEFAULT_POLICIES } from "@/lib/evaluations/default-policies";
import { AgentPicker } from "./agent-picker";
import { JudgeChoiceField } from "./judge-choice-field";
import { PolicyFields } from "./policy-fields";

export interface CreatedEvaluation {
  id: string;
  name: string;
  runs: number;
  variant: "full" | "code-dev";
  paperIds: string[];
}

const select = "w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm";
const optionalNumber = (value: string) => (value.trim() === "" ? null : Number(value));
const optionalText = (value: string) => (value.trim() === "" ? null : value.trim());

/**
 * The first step of a new evaluation: agent × split × N runs × variant, the judge, its policies, aggregation,
 * resources provided, human baseline and the setup PaperBench asks to report. `POST /api/evaluations`;
 * a refused field shows its message beside it. The body scrolls under a footer that keeps the
 * buttons in view (a `sections` dialog), however short the window.
 */
export function NewEvaluationForm({
  splits,
  onCreated,
  onCancel,
}: {
  splits: Record<string, string[]>;
  onCreated(evaluation: CreatedEvaluation): void;
  onCancel(): void;
}) {
  const [name, setName] = useState("");
  const [agent, setAgent] = useState({ name: "", scaffold: null as string | null });
  const [split, setSplit] = useState(Object.keys(splits).includes("all") ? "all" : "custom");
  const [paperIds, setPaperIds] = useState("");
  const [runs, setRuns] = useState("3");
  const [variant, setVariant] = useState<"full" | "code-dev">("full");
  const [policies, setPolicies] = useState<EvaluationPolicies>(DEFAULT_POLICIES);
  const [aggregation, setAggregation] = useState<"mean" | "best_of_n">("mean");
  const [resourcesProvided, setResourcesProvided] = useState(false);
  const [isHuman, setIsHuman] = useState(false);
  const [judgeConfigId, setJudgeConfigId] = useState<string | null>(null);
  // The setup's scaffold is the agent's: asked once, in the agent picker.
  const [setup, setSetup] = useState({ timeLimit: "", hardware: "", tools: "" });
  const onAgent = useCallback((name: string, scaffold: string | null) => setAgent({ name, scaffold }), []);

  const create = useMutation({
    mutationFn: () => {
      const body: CreateEvaluationInput = {
        name,
        agent: agent.name,
        split,
        paperIds: split === "custom" ? paperIds.split(/[\s,]+/).filter(Boolean) : [],
        runs: Number(runs),
        variant,
        policies,
        aggregation,
        resourcesProvided,
        isHuman,
        judgeConfigId,
        setup: {
          time_limit_h: optionalNumber(setup.timeLimit),
          hardware: optionalText(setup.hardware),
          scaffold: agent.scaffold,
          tools: optionalText(setup.tools),
        },
      };
      return fetchJson<{ evaluation: CreatedEvaluation }>("/api/evaluations", jsonInit("POST", body));
    },
    onSuccess: ({ evaluation }) => onCreated(evaluation),
  });
  const error = create.error instanceof ApiClientError ? create.error : null;
  const fieldError = (path: string) => error?.details.find((d) => d.path === path)?.message;

  return (
    <form
      className="flex min-h-0 flex-1 flex-col"
      data-testid="new-evaluation-form"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <div className="min-h-0 flex-1 space-y-4 overflow-auto p-4">
        <Field label="Name" error={fieldError("name")}>
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            placeholder="BasicAgent · o3-mini on all, 3 runs"
            data-testid="evaluation-name"
          />
        </Field>
        <AgentPicker onChange={onAgent} error={fieldError("agent")} testId="evaluation-agent" />
        <div className="grid gap-3 sm:grid-cols-[1fr_6rem_8rem]">
          <Field
            label="Split"
            error={fieldError("split")}
            hint={split === "custom" ? undefined : `${splits[split]?.length ?? 0} papers`}
          >
            <select
              className={select}
              value={split}
              onChange={(e) => setSplit(e.target.value)}
              data-testid="evaluation-split"
            >
              {Object.entries(splits).map(([splitName, papers]) => (
                <option key={splitName} value={splitName}>
                  {splitName} ({papers.length})
                </option>
              ))}
              <option value="custom">custom paper ids</option>
            </select>
          </Field>
          <Field label="Runs" error={fieldError("runs")}>
            <Input
              type="number"
              min={1}
              max={100}
              value={runs}
              onChange={(e) => setRuns(e.target.value)}
              required
              data-testid="evaluation-runs"
            />
          </Field>
          <Field label="Variant" error={fieldError("variant")}>
            <select
              className={select}
              value={variant}
              onChange={(e) => setVariant(e.target.value as "full" | "code-dev")}
              data-testid="evaluation-variant"
            >
              <option value="full">full</option>
              <option value="code-dev">code-dev</option>
            </select>
          </Field>
        </div>
        {split === "custom" && (
          <Field
            label="Paper ids"
            hint="Separated by commas, spaces or lines"
            error={fieldError("paperIds") ?? error?.details.find((d) => d.path.startsWith("paperIds."))?.message}
          >
            <Textarea
              rows={2}
              value={paperIds}
              onChange={(e) => setPaperIds(e.target.value)}
              data-testid="evaluation-paper-ids"
            />
          </Field>
        )}
        <JudgeChoiceField value={judgeConfigId} onChange={setJudgeConfigId} error={fieldError("judgeConfigId")} />
        <PolicyFields value={policies} onChange={setPolicies} errors={fieldError} />
        <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
          <label className="flex items-center gap-1.5">
            Aggregation
            <select
              className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm"
              value={aggregation}
              onChange={(e) => setAggregation(e.target.value as "mean" | "best_of_n")}
              data-testid="evaluation-aggregation"
            >
              <option value="mean">mean over runs</option>
              <option value="best_of_n">best of N</option>
            </select>
          </label>
          <label
            className="flex items-center gap-1.5"
            title="Datasets and models handed to the agent: Dataset and Model Acquisition leaves weigh 0"
          >
            <input
              type="checkbox"
              checked={resourcesProvided}
              onChange={(e) => setResourcesProvided(e.target.checked)}
            />{" "}
            Resources provided
          </label>
          <label className="flex items-center gap-1.5">
            <input type="checkbox" checked={isHuman} onChange={(e) => setIsHuman(e.target.checked)} /> Human baseline
          </label>
        </div>
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-1 text-sm font-medium text-zinc-800">Setup (as PaperBench asks to report)</legend>
          <Field label="Time limit (hours)" error={fieldError("setup.time_limit_h")}>
            <Input
              type="number"
              min={0}
              step="any"
              value={setup.timeLimit}
              onChange={(e) => setSetup({ ...setup, timeLimit: e.target.value })}
            />
          </Field>
          <Field label="Hardware" error={fieldError("setup.hardware")}>
            <Input
              value={setup.hardware}
              onChange={(e) => setSetup({ ...setup, hardware: e.target.value })}
              placeholder="1× A10 GPU"
            />
          </Field>
          <Field label="Tools" error={fieldError("setup.tools")}>
            <Input
              value={setup.tools}
              onChange={(e) => setSetup({ ...setup, tools: e.target.value })}
              placeholder="bash, python, web browser"
            />
          </Field>
          <p className="self-end text-xs text-zinc-500" data-testid="evaluation-setup-scaffold">
            Scaffold: the agent&apos;s{agent.scaffold ? ` (${agent.scaffold})` : ""}.
          </p>
        </fieldset>
        <FormError error={create.error?.message} />
      </div>
      <div className="flex gap-2 border-t border-zinc-100 p-4">
        <Button
          type="submit"
          disabled={!name.trim() || !agent.name || create.isPending}
          data-testid="create-evaluation"
        >
          {create.isPending ? "Creating…" : "Create, then upload submissions"}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
