"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson } from "@/components/api/client";
import { Button } from "@/components/ui/button";
import type { CalibrationView } from "@/lib/judge/lab/types";
import { AddendumEditor } from "./addendum-editor";
import { LabGroupTable } from "./lab-group-table";
import { useJudgeConfigs, useStartLab } from "./use-judge-lab";

/**
 * Calibration of a paper's judge addendum: the overrides of the judge with their reasons,
 * suggestions from them, the accepted versions, and F1 per configuration and addendum version
 * from the lab's runs on this paper (re-run to see after beside before).
 */
export function CalibrationPanel({ onLabStarted }: { onLabStarted: (labId: string) => void }) {
  const papers = useQuery({
    queryKey: ["papers"],
    queryFn: () => fetchJson<{ papers: { id: string; title: string }[] }>("/api/papers").then((r) => r.papers),
  });
  const [paperId, setPaperId] = useState("");
  const chosen = paperId || papers.data?.[0]?.id || "";
  const calibration = useQuery({
    queryKey: ["calibration", chosen],
    queryFn: () => fetchJson<CalibrationView>(`/api/judge-lab/papers/${encodeURIComponent(chosen)}`),
    enabled: chosen !== "",
    // Lab runs started or finished elsewhere change F1 by version: read it afresh on each visit.
    staleTime: 0,
  });
  const configs = useJudgeConfigs();
  const [highlight, setHighlight] = useState<ReadonlySet<string>>(new Set());
  const rerun = useStartLab(onLabStarted);
  const data = calibration.data;
  // The same submissions and configurations as the paper's lab runs so far (before the first: every
  // labelled submission with the default configuration), so F1 after sits beside F1 before.
  const defaultConfig = configs.data?.find((c) => c.isDefault);
  const rerunConfigIds = data?.rerun.configIds.length ? data.rerun.configIds : defaultConfig ? [defaultConfig.id] : [];
  const rerunSubmissionIds = data?.rerun.submissionIds.length
    ? data.rerun.submissionIds
    : (data?.submissions ?? []).map((s) => s.submissionId);
  return (
    <div className="space-y-4" data-testid="calibration-panel">
      <label className="flex items-center gap-2 text-sm text-zinc-700">
        Paper
        <select
          className="rounded-md border border-zinc-300 px-2 py-1"
          value={chosen}
          onChange={(e) => setPaperId(e.target.value)}
          data-testid="calibration-paper"
        >
          {papers.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title} ({p.id})
            </option>
          ))}
        </select>
      </label>
      {calibration.isError && <p className="text-sm text-red-700">{calibration.error.message}</p>}
      {data && (
        <>
          <section className="rounded-lg border border-zinc-200 bg-white p-3">
            <h2 className="text-sm font-semibold text-zinc-800">Overrides of the judge ({data.overrides.length})</h2>
            {data.overrides.length === 0 ? (
              <p className="text-sm text-zinc-500">Nobody has overridden the judge on this paper yet.</p>
            ) : (
              <table className="mt-2 w-full text-sm" data-testid="calibration-overrides">
                <thead className="text-left text-xs text-zinc-500">
                  <tr>
                    <th>Requirement</th>
                    <th>Judge → person</th>
                    <th>Reason</th>
                    <th>Where</th>
                  </tr>
                </thead>
                <tbody>
                  {data.overrides.map((o) => (
                    <tr
                      key={o.id}
                      className={`border-t border-zinc-100 align-top ${highlight.has(o.id) ? "bg-amber-50" : ""}`}
                      data-override-id={o.id}
                    >
                      <td className="max-w-md py-1">
                        {o.requirements} <span className="text-xs text-zinc-500">{o.category ?? ""}</span>
                      </td>
                      <td className="tabular-nums">
                        {o.judgeScore} → {o.humanScore}
                      </td>
                      <td className="max-w-md">{o.reason || <span className="text-zinc-400">no reason given</span>}</td>
                      <td className="text-xs">
                        <a
                          className="text-indigo-700 hover:underline"
                          href={`/gradings/${o.gradingId}?leaf=${o.nodeKey}`}
                        >
                          {o.agentName} · run {o.runIndex}
                        </a>
                        {o.userName ? ` · ${o.userName}` : ""}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <AddendumEditor
            key={data.paper.id}
            calibration={data}
            configs={configs.data ?? []}
            onHighlight={setHighlight}
          />
          <section className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3">
            <div className="flex items-center gap-2">
              <h2 className="text-sm font-semibold text-zinc-800">F1 by addendum version</h2>
              <Button
                className="ml-auto"
                variant="secondary"
                disabled={rerun.isPending || rerunConfigIds.length === 0 || rerunSubmissionIds.length === 0}
                onClick={() =>
                  rerun.mutate({
                    name: `${data.paper.id} with v${data.latestVersion}`,
                    variant: data.rerun.variant,
                    configIds: rerunConfigIds,
                    submissionIds: rerunSubmissionIds,
                  })
                }
                data-testid="calibration-rerun"
              >
                Re-run the judge lab on this paper
              </Button>
            </div>
            {data.submissions.length === 0 && (
              <p className="text-sm text-zinc-500">This paper has no human-labelled submission to run the lab on.</p>
            )}
            {rerun.isError && <p className="text-sm text-red-700">{rerun.error.message}</p>}
            {data.byAddendum.length > 0 ? (
              <LabGroupTable groups={data.byAddendum} showVersion />
            ) : (
              <p className="text-sm text-zinc-500">No lab run on this paper yet.</p>
            )}
          </section>
        </>
      )}
    </div>
  );
}
