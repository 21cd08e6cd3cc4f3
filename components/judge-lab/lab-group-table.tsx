"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import type { LabGroupView } from "@/lib/judge/lab/types";
import { TASK_CATEGORIES } from "@/lib/rubric/types";
import { f2, seconds, usd, versionLabel } from "./format";

/**
 * A lab's table: per configuration (and addendum version, in calibration), F1 overall and per
 * task category with the leaves compared, cost and time per paper; "Make default" sets the
 * configuration the start dialog preselects (one at a time).
 */
export function LabGroupTable({ groups, showVersion = false }: { groups: LabGroupView[]; showVersion?: boolean }) {
  const queryClient = useQueryClient();
  const makeDefault = useMutation({
    mutationFn: (configId: string) =>
      fetchJson(`/api/judge/configs/${configId}`, jsonInit("PATCH", { isDefault: true })),
    onSettled: () => {
      void refetchAfterChange(queryClient, ["judge-lab"]);
      void refetchAfterChange(queryClient, ["judge-configs"]);
      void refetchAfterChange(queryClient, ["calibration"]);
    },
  });
  const categories = [
    ...TASK_CATEGORIES,
    ...new Set(
      groups
        .flatMap((g) => Object.keys(g.stratified))
        .filter((c) => !(TASK_CATEGORIES as readonly string[]).includes(c)),
    ),
  ];
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="judge-lab-table">
        <thead className="text-left text-xs text-zinc-500">
          <tr>
            <th className="py-1">Configuration</th>
            {showVersion && <th>Addendum</th>}
            <th>Runs</th>
            <th>F1</th>
            {categories.map((c) => (
              <th key={c}>F1 {c === "null" ? "(no category)" : c}</th>
            ))}
            <th>Cost / paper</th>
            <th>Time / paper</th>
            {!showVersion && <th />}
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.groupKey} className="border-t border-zinc-100" data-testid="judge-lab-row">
              <td className="py-1">
                {g.configName} <span className="text-xs text-zinc-500">{g.kind === "llm" ? g.model : g.kind}</span>
                {g.isDefault && <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-800">default</span>}
              </td>
              {showVersion && <td>{versionLabel(g.addendumVersion)}</td>}
              <td className="tabular-nums">
                {g.succeeded}/{g.runs}
                {g.finished < g.runs ? (
                  <span className="text-xs text-zinc-500"> ({g.runs - g.finished} going)</span>
                ) : null}
              </td>
              <td className="font-semibold tabular-nums" title={`${g.overall.num_samples} leaves`}>
                {g.overall.num_samples > 0 ? f2(g.overall.f1) : "—"}
              </td>
              {categories.map((c) => (
                <td
                  key={c}
                  className="tabular-nums"
                  title={g.stratified[c] ? `${g.stratified[c].num_samples} leaves` : undefined}
                >
                  {g.stratified[c] ? f2(g.stratified[c].f1) : "—"}
                </td>
              ))}
              <td className="tabular-nums">{usd(g.costPerPaperUsd)}</td>
              <td className="tabular-nums">{seconds(g.timePerPaperS)}</td>
              {!showVersion && (
                <td className="text-right">
                  {g.configId && !g.isDefault && (
                    <Button
                      variant="secondary"
                      disabled={makeDefault.isPending}
                      onClick={() => makeDefault.mutate(g.configId!)}
                      data-testid="judge-lab-make-default"
                    >
                      Make default
                    </Button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {makeDefault.isError && <p className="text-sm text-red-700">{makeDefault.error.message}</p>}
    </div>
  );
}
