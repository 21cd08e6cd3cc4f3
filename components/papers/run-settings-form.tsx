"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { ApiClientError, fetchJson, jsonInit } from "@/components/api/client";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { formatDurationS } from "@/lib/jobs/duration";
import type { RunSettings } from "@/lib/jobs/paper-settings";
import { runSettingsKey, type RunSettingsView } from "./run-settings-query";

/** The form's text, as typed: a number input may hold anything while it is edited. */
interface Draft {
  hours: string;
  minutes: string;
  gpus: string;
  network: boolean;
  salvageRetryBelowS: string;
  diskLimitGiB: string;
  memoryLimitGiB: string;
  processLimit: string;
}

/** Limits are stored in MiB and shown in GiB (a fraction where staff set MiB through the API). */
const gib = (mib: number) => String(Math.round((mib / 1024) * 100) / 100);
const mibOrNull = (text: string) => (text.trim() === "" ? null : Math.round(Number(text) * 1024));

function draftOf(s: RunSettings): Draft {
  return {
    hours: String(Math.floor(s.timeoutS / 3600)),
    minutes: String(Math.floor((s.timeoutS % 3600) / 60)),
    gpus: String(s.gpus),
    network: s.network,
    salvageRetryBelowS: String(s.salvageRetryBelowS),
    diskLimitGiB: gib(s.diskLimitMiB),
    memoryLimitGiB: gib(s.memoryLimitMiB),
    processLimit: String(s.processLimit),
  };
}

/** An empty box is sent as null, so the studio's refusal names the field rather than a 0 passing unnoticed. */
const numberOrNull = (text: string) => (text.trim() === "" ? null : Number(text));

/** Staff's form: the timeout in hours and minutes, GPUs, network, salvage retries; the studio's refusals beside their field. */
export function RunSettingsForm({ paperId, initial }: { paperId: string; initial: RunSettingsView }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { timeout: useId(), network: useId() };
  // Seconds set through the API (not a whole minute) are kept unless the timeout is edited here.
  const extraSeconds =
    draft.hours === draftOf(initial).hours && draft.minutes === draftOf(initial).minutes ? initial.timeoutS % 60 : 0;
  const hours = numberOrNull(draft.hours);
  const minutes = numberOrNull(draft.minutes);
  const timeoutS = hours === null && minutes === null ? null : (hours ?? 0) * 3600 + (minutes ?? 0) * 60 + extraSeconds;

  const save = useMutation({
    mutationFn: () =>
      fetchJson<{ settings: RunSettingsView }>(
        `/api/papers/${paperId}/run-settings`,
        jsonInit("PUT", {
          timeoutS,
          gpus: numberOrNull(draft.gpus),
          network: draft.network,
          salvageRetryBelowS: numberOrNull(draft.salvageRetryBelowS),
          diskLimitMiB: mibOrNull(draft.diskLimitGiB),
          memoryLimitMiB: mibOrNull(draft.memoryLimitGiB),
          processLimit: numberOrNull(draft.processLimit),
        }),
      ),
    onSuccess: ({ settings }) => {
      toast.success("Reproduction settings saved");
      queryClient.setQueryData(runSettingsKey(paperId), settings);
    },
    onError: (err) => {
      if (err instanceof ApiClientError) setErrors(Object.fromEntries(err.details.map((d) => [d.path, d.message])));
      toast.error(err.message);
    },
  });

  const set = (key: keyof Draft, errorKey: string) => (value: string | boolean) => {
    setDraft((d) => ({ ...d, [key]: value }));
    // The studio's refusal was about the old value.
    setErrors(({ [errorKey]: _stale, ...rest }) => rest);
  };
  const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(initial));

  function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    save.mutate();
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Reproduction settings">
      <fieldset className="space-y-1" aria-describedby={`${ids.timeout}-note`}>
        <legend className="text-sm font-medium text-zinc-800">Timeout</legend>
        <div className="flex items-center gap-1.5 text-sm">
          <Input
            type="number"
            min={0}
            max={168}
            inputMode="numeric"
            aria-label="Timeout hours"
            aria-invalid={!!errors.timeoutS}
            className="w-20"
            value={draft.hours}
            onChange={(e) => set("hours", "timeoutS")(e.target.value)}
          />
          <span>h</span>
          <Input
            type="number"
            min={0}
            max={59}
            inputMode="numeric"
            aria-label="Timeout minutes"
            aria-invalid={!!errors.timeoutS}
            className="w-20"
            value={draft.minutes}
            onChange={(e) => set("minutes", "timeoutS")(e.target.value)}
          />
          <span>min</span>
        </div>
        {errors.timeoutS ? (
          <p id={`${ids.timeout}-note`} role="alert" className="text-xs text-red-700">
            Timeout {errors.timeoutS}
          </p>
        ) : (
          <p id={`${ids.timeout}-note`} className="text-xs text-zinc-500">
            {timeoutS !== null && Number.isFinite(timeoutS)
              ? `${formatDurationS(timeoutS)} of wall-clock time, then the run is stopped`
              : "Hours and minutes"}
          </p>
        )}
      </fieldset>

      <Field label="GPUs per job" hint="A job waits for a runner with this many free GPUs." error={errors.gpus}>
        <Input
          type="number"
          min={0}
          max={64}
          inputMode="numeric"
          aria-invalid={!!errors.gpus}
          value={draft.gpus}
          onChange={(e) => set("gpus", "gpus")(e.target.value)}
        />
      </Field>

      <div className="space-y-1">
        <div className="flex items-center gap-2">
          <input
            id={ids.network}
            type="checkbox"
            className="size-4 accent-indigo-600"
            checked={draft.network}
            aria-describedby={`${ids.network}-note`}
            onChange={(e) => set("network", "network")(e.target.checked)}
          />
          <label htmlFor={ids.network} className="text-sm font-medium text-zinc-800">
            Network allowed
          </label>
        </div>
        <p id={`${ids.network}-note`} className="text-xs text-zinc-500">
          reproduce.sh may download data and models; off, it runs with no network at all.
        </p>
        {errors.network && (
          <p role="alert" className="text-xs text-red-700">
            {errors.network}
          </p>
        )}
      </div>

      <Field
        label="Salvage retry below (seconds)"
        hint="A failed run shorter than this is run once more; 0 = off."
        error={errors.salvageRetryBelowS}
      >
        <Input
          type="number"
          min={0}
          inputMode="numeric"
          aria-invalid={!!errors.salvageRetryBelowS}
          value={draft.salvageRetryBelowS}
          onChange={(e) => set("salvageRetryBelowS", "salvageRetryBelowS")(e.target.value)}
        />
      </Field>

      <Field
        label="Disk limit (GiB)"
        hint="The job's copy, /tmp and HOME together; a job that fills it fails."
        error={errors.diskLimitMiB}
      >
        <Input
          type="number"
          min={0.0625}
          step="any"
          inputMode="decimal"
          aria-invalid={!!errors.diskLimitMiB}
          value={draft.diskLimitGiB}
          onChange={(e) => set("diskLimitGiB", "diskLimitMiB")(e.target.value)}
        />
      </Field>

      <Field label="Memory limit (GiB)" hint="A job past it is killed and fails." error={errors.memoryLimitMiB}>
        <Input
          type="number"
          min={0.0625}
          step="any"
          inputMode="decimal"
          aria-invalid={!!errors.memoryLimitMiB}
          value={draft.memoryLimitGiB}
          onChange={(e) => set("memoryLimitGiB", "memoryLimitMiB")(e.target.value)}
        />
      </Field>

      <Field
        label="Process limit"
        hint="Processes and threads at once; a job that reaches it fails."
        error={errors.processLimit}
      >
        <Input
          type="number"
          min={16}
          inputMode="numeric"
          aria-invalid={!!errors.processLimit}
          value={draft.processLimit}
          onChange={(e) => set("processLimit", "processLimit")(e.target.value)}
        />
      </Field>

      <Button type="submit" disabled={save.isPending || !changed} className="w-full">
        {save.isPending ? "Saving…" : "Save settings"}
      </Button>
    </form>
  );
}
