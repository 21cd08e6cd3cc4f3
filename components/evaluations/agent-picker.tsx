"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { fetchJson } from "@/components/api/client";
import { Field, Input } from "@/components/ui/field";
import { agentNameOf } from "@/lib/submissions/schemas";

/**
 * An agent: one the studio knows (`GET /api/agents`), or a new one named by its scaffold and model
 * (`scaffold · model`, as the grading import names it). Calls `onChange` with the name, or "", and
 * the agent's scaffold (the new one's, or the known agent's; null when it has none), so a form
 * that reports the scaffold need not ask for it twice.
 */
export function AgentPicker({
  onChange,
  error,
  testId,
}: {
  onChange(name: string, scaffold: string | null): void;
  error?: string;
  testId: string;
}) {
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: () =>
      fetchJson<{ agents: { id: string; name: string; scaffold: string | null }[] }>("/api/agents").then(
        (r) => r.agents,
      ),
  });
  const [mode, setMode] = useState<"existing" | "new">("new");
  const [existing, setExisting] = useState("");
  const [scaffold, setScaffold] = useState("");
  const [model, setModel] = useState("");
  const name = mode === "existing" ? existing : scaffold.trim() && model.trim() ? agentNameOf(scaffold, model) : "";
  const agentScaffold =
    mode === "existing" ? (agents.data?.find((a) => a.name === existing)?.scaffold ?? null) : scaffold.trim() || null;
  useEffect(() => onChange(name, agentScaffold), [name, agentScaffold, onChange]);

  return (
    <fieldset className="space-y-2" data-testid={testId}>
      <legend className="text-sm font-medium text-zinc-800">Agent</legend>
      <div className="flex gap-4 text-sm">
        <label className="flex items-center gap-1.5">
          <input type="radio" checked={mode === "new"} onChange={() => setMode("new")} data-testid={`${testId}-new`} />{" "}
          New: scaffold · model
        </label>
        <label className="flex items-center gap-1.5">
          <input
            type="radio"
            checked={mode === "existing"}
            onChange={() => setMode("existing")}
            data-testid={`${testId}-existing`}
          />{" "}
          One the studio knows
        </label>
      </div>
      {mode === "new" ? (
        <div className="grid gap-2 sm:grid-cols-2">
          <Field label="Scaffold">
            <Input
              value={scaffold}
              onChange={(e) => setScaffold(e.target.value)}
              placeholder="BasicAgent"
              data-testid={`${testId}-scaffold`}
            />
          </Field>
          <Field label="Model">
            <Input
              value={model}
              onChange={(e) => setModel(e.target.value)}
              placeholder="o3-mini"
              data-testid={`${testId}-model`}
            />
          </Field>
        </div>
      ) : (
        <select
          value={existing}
          onChange={(e) => setExisting(e.target.value)}
          className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm"
          data-testid={`${testId}-select`}
        >
          <option value="">{agents.isLoading ? "Loading…" : "Choose an agent"}</option>
          {agents.data?.map((a) => (
            <option key={a.id} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
      )}
      {error && (
        <span role="alert" className="block text-xs text-red-700">
          {error}
        </span>
      )}
    </fieldset>
  );
}
