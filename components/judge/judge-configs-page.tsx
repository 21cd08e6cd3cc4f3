"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Star } from "lucide-react";
import { useState } from "react";
import { ApiClientError, fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import type { JudgeConfigInput } from "@/lib/judge/config";
import type { JudgeConfigView } from "@/lib/judge/views";
import { JudgeConfigForm, NEW_JUDGE_CONFIG } from "./judge-config-form";
import { JudgeRunHistory } from "./judge-run-history";

const KEY = ["judge-configs", "all"] as const;

/** The configuration's own fields (a listed one carries its id and state too). */
function fieldsOf(c: JudgeConfigInput): JudgeConfigInput {
  return Object.fromEntries(
    Object.keys(NEW_JUDGE_CONFIG).map((k) => [k, c[k as keyof JudgeConfigInput]]),
  ) as unknown as JudgeConfigInput;
}

function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiClientError)) return {};
  return Object.fromEntries(error.details.map((d) => [d.path.split(".")[0], d.message]));
}

/** `/judge` (staff): the judge configurations, which is the default, whether each is ready, a form to add or edit one, and their runs over time. */
export function JudgeConfigsPage() {
  const queryClient = useQueryClient();
  const listing = useQuery({
    queryKey: KEY,
    queryFn: () =>
      fetchJson<{ configs: JudgeConfigView[]; paperbenchMode?: { available: boolean; reason: string | null } }>(
        "/api/judge/configs?archived=1",
      ),
  });
  const configs = { ...listing, data: listing.data?.configs };
  const paperbenchUnavailable =
    listing.data?.paperbenchMode && !listing.data.paperbenchMode.available ? listing.data.paperbenchMode.reason : null;
  const [editing, setEditing] = useState<JudgeConfigView | "new" | null>(null);
  const refresh = () => void refetchAfterChange(queryClient, ["judge-configs"]);
  const save = useMutation({
    mutationFn: (config: JudgeConfigInput) =>
      editing === "new" || editing === null
        ? fetchJson("/api/judge/configs", jsonInit("POST", config))
        : fetchJson(`/api/judge/configs/${editing.id}`, jsonInit("PATCH", config)),
    onSuccess: () => {
      setEditing(null);
      refresh();
    },
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: "default" | "archive" }) =>
      action === "default"
        ? fetchJson(`/api/judge/configs/${id}`, jsonInit("PATCH", { isDefault: true }))
        : fetchJson(`/api/judge/configs/${id}`, { method: "DELETE" }),
    onSettled: refresh,
  });
  return (
    <div className="space-y-4" data-testid="judge-configs-page">
      <div className="flex items-center gap-2">
        <h1 className="text-lg font-semibold text-zinc-900">Judge configurations</h1>
        <Button className="ml-auto" onClick={() => setEditing("new")} data-testid="judge-config-new">
          New configuration
        </Button>
      </div>
      {editing && (
        <div className="rounded-lg border border-zinc-200 bg-white p-4">
          <JudgeConfigForm
            paperbenchUnavailable={paperbenchUnavailable}
            key={editing === "new" ? "new" : editing.id}
            initial={editing === "new" ? NEW_JUDGE_CONFIG : editing}
            apiKeySet={editing === "new" ? null : editing.apiKeySet}
            submitLabel={editing === "new" ? "Create" : "Save"}
            pending={save.isPending}
            error={save.error?.message ?? null}
            fieldErrors={fieldErrorsOf(save.error)}
            onSubmit={(c) => save.mutate(fieldsOf(c))}
          />
        </div>
      )}
      {configs.isError && <p className="text-sm text-red-700">{configs.error.message}</p>}
      <table className="w-full text-sm" data-testid="judge-config-list">
        <thead className="text-left text-xs text-zinc-500">
          <tr>
            <th className="py-1">Name</th>
            <th>Model</th>
            <th>Mode</th>
            <th>Key</th>
            <th>$ in / cached / out per M</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {configs.data?.map((c) => (
            <tr
              key={c.id}
              className={`border-t border-zinc-100 ${c.archived ? "text-zinc-400" : ""}`}
              data-testid="judge-config-row"
              data-name={c.name}
            >
              <td className="py-1.5">
                {c.isDefault && <Star size={12} className="mr-1 inline text-amber-500" aria-label="default" />}
                {c.name}
                {c.isDemo && <span className="ml-1.5 rounded bg-zinc-100 px-1 text-[10px] text-zinc-500">demo</span>}
                {c.archived && <span className="ml-1.5 text-[10px]">archived</span>}
              </td>
              <td className="font-mono text-xs">{c.kind === "llm" ? c.model : c.kind}</td>
              <td className="text-xs">{c.mode}</td>
              <td className="text-xs" data-testid="judge-config-ready">
                {c.kind !== "llm"
                  ? "none needed"
                  : c.apiKeyEnv === null
                    ? "none"
                    : `${c.apiKeyEnv} ${c.apiKeySet ? "set" : "not set"}`}
              </td>
              <td className="font-mono text-xs">
                {c.priceInputPerM} / {c.priceCachedInputPerM} / {c.priceOutputPerM}
              </td>
              <td className="space-x-1 text-right">
                {!c.archived && (
                  <>
                    <Button variant="ghost" onClick={() => setEditing(c)}>
                      Edit
                    </Button>
                    {!c.isDefault && (
                      <Button variant="ghost" onClick={() => act.mutate({ id: c.id, action: "default" })}>
                        Make default
                      </Button>
                    )}
                    <Button variant="ghost" onClick={() => act.mutate({ id: c.id, action: "archive" })}>
                      Archive
                    </Button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <JudgeRunHistory />
    </div>
  );
}
