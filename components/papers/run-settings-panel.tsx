"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/api/client";
import { formatDurationS } from "@/lib/jobs/duration";
import type { RunSettings } from "@/lib/jobs/paper-settings";
import { PaperSecrets } from "./paper-secrets";
import { RunSettingsForm } from "./run-settings-form";
import { runSettingsKey, type RunSettingsView } from "./run-settings-query";

/** How a submission of this paper is reproduced: staff edit it, members read it. */
export function RunSettingsPanel({ paperId, canManage }: { paperId: string; canManage: boolean }) {
  const settings = useQuery({
    queryKey: runSettingsKey(paperId),
    queryFn: () =>
      fetchJson<{ settings: RunSettingsView }>(`/api/papers/${paperId}/run-settings`).then((r) => r.settings),
  });

  return (
    <section
      className="rounded-lg border border-zinc-200 bg-white p-5"
      data-testid="run-settings-panel"
      aria-labelledby="run-settings-title"
    >
      <h2 id="run-settings-title" className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">
        Reproduction
      </h2>
      {settings.isPending && <p className="text-sm text-zinc-500">Loading…</p>}
      {settings.isError && (
        <p role="alert" className="text-sm text-red-700">
          {settings.error.message}
        </p>
      )}
      {settings.data &&
        (canManage ? (
          // Keyed by the stored settings: the form starts again from them once they change (not when a secret does).
          <RunSettingsForm key={settingsKey(settings.data)} paperId={paperId} initial={settings.data} />
        ) : (
          <ReadOnlySettings settings={settings.data} />
        ))}
      {settings.data && <PaperSecrets paperId={paperId} names={settings.data.secretNames} canManage={canManage} />}
    </section>
  );
}

const settingsKey = (s: RunSettings) =>
  [s.timeoutS, s.gpus, s.network, s.salvageRetryBelowS, s.diskLimitMiB, s.memoryLimitMiB, s.processLimit].join();

function ReadOnlySettings({ settings }: { settings: RunSettings }) {
  const rows: [string, string][] = [
    ["Timeout", formatDurationS(settings.timeoutS)],
    ["GPUs per job", String(settings.gpus)],
    ["Network", settings.network ? "allowed" : "not allowed"],
    [
      "Salvage retry",
      settings.salvageRetryBelowS > 0 ? `failed runs under ${formatDurationS(settings.salvageRetryBelowS)}` : "off",
    ],
    [
      "Limits",
      `${formatMiB(settings.diskLimitMiB)} disk, ${formatMiB(settings.memoryLimitMiB)} memory, ${settings.processLimit} processes`,
    ],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-zinc-500">{label}</dt>
          <dd data-testid={`run-setting-${label.toLowerCase().replace(/ /g, "-")}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const formatMiB = (mib: number) => (mib % 1024 === 0 ? `${mib / 1024} GiB` : `${mib} MiB`);
