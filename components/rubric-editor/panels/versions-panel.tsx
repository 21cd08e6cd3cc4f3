"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { GitCompareArrows, History, RotateCcw, Save } from "lucide-react";
import { useId, useMemo, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { FormError, Input } from "@/components/ui/field";
import { IconButton } from "@/components/ui/icon-button";
import { fetchJson, jsonInit } from "@/components/api/client";
import type { RubricOperation } from "@/lib/rubric/operations";
import { RevisionHistory, type HistoryPanelProps } from "./revision-history";
import { EmptyState, LoadError, PanelFrame, relativeTime, useNow } from "./panel-ui";
import { CompareSection } from "./compare-versions";
import { LIVE, rubricVersionsQueryKey, type RubricVersion, type Side } from "./rubric-versions";
import { RestoreConfirm } from "./restore-confirm";

const NAME_MAX = 200;

/**
 * Named versions of the rubric: save one (authors and staff), list them, compare any two of them
 * or one with the live tree (added, removed, moved, changed nodes and share changes), and restore
 * one as the live tree (one operation, undone with Ctrl+Z). Below, the same for any revision of
 * the change log.
 */
export function VersionsPanel({ paperId, canEdit, liveRows, revision, onRestored, onSelect }: HistoryPanelProps) {
  const queryClient = useQueryClient();
  const now = useNow();
  const list = useQuery({
    queryKey: rubricVersionsQueryKey(paperId),
    queryFn: () =>
      fetchJson<{ versions: RubricVersion[] }>(`/api/papers/${paperId}/rubric/versions`).then((r) => r.versions),
  });
  const versions = useMemo(() => list.data ?? [], [list.data]);

  // Comparison sides; `null` "from" follows the newest version.
  const [fromChoice, setFromChoice] = useState<Side | null>(null);
  const [to, setTo] = useState<Side>(LIVE);
  const known = (side: Side | null) => side === LIVE || versions.some((v) => v.id === side);
  const from: Side | null = fromChoice !== null && known(fromChoice) ? fromChoice : (versions[0]?.id ?? null);
  const toSide: Side = known(to) ? to : LIVE;

  const [confirming, setConfirming] = useState<string | null>(null);

  const restore = useMutation({
    mutationFn: (version: RubricVersion) =>
      fetchJson<{ revision: number; inverse: RubricOperation }>(
        `/api/papers/${paperId}/rubric/versions/${version.id}/restore`,
        jsonInit("POST", {}),
      ),
    onSuccess: (result, version) => {
      setConfirming(null);
      onRestored(result.inverse);
      toast.success(`Restored ${version.name} — Undo with Ctrl+Z`);
    },
    // The error shows in the confirmation box of the version concerned.
  });

  function compareWithLive(id: string) {
    setFromChoice(id);
    setTo(LIVE);
  }

  return (
    <PanelFrame
      title="Versions"
      testId="versions-panel"
      subtitle={<span className="font-mono">live rev {revision}</span>}
    >
      {canEdit && (
        <SaveVersionForm
          paperId={paperId}
          onSaved={() => refetchAfterChange(queryClient, rubricVersionsQueryKey(paperId))}
        />
      )}

      {list.isPending && <p className="text-xs text-zinc-500">Loading versions…</p>}
      {list.isError && <LoadError message={list.error.message} onRetry={() => void list.refetch()} />}
      {list.isSuccess && versions.length === 0 && (
        <EmptyState testId="versions-empty" icon={<History size={20} className="text-zinc-400" aria-hidden />}>
          <p className="font-medium text-zinc-700">No versions saved yet</p>
          <span className="mt-1 block text-xs text-zinc-500">
            {canEdit
              ? "Save one to compare later changes against it, or to go back to it."
              : "Authors can save named versions of this rubric."}
          </span>
        </EmptyState>
      )}

      {versions.length > 0 && (
        <ul
          className="max-h-72 divide-y divide-zinc-100 overflow-auto rounded-md border border-zinc-200 bg-white"
          aria-label="Saved versions"
        >
          {versions.map((v) => (
            <VersionItem
              key={v.id}
              version={v}
              now={now}
              live={v.revision === revision}
              role_={v.id === from ? "from" : v.id === toSide ? "to" : null}
              canEdit={canEdit}
              confirming={confirming === v.id}
              restoring={restore.isPending && restore.variables?.id === v.id}
              restoreError={restore.isError && restore.variables?.id === v.id ? restore.error.message : null}
              onCompare={() => compareWithLive(v.id)}
              onAskRestore={() => {
                restore.reset();
                setConfirming(v.id);
              }}
              onCancelRestore={() => setConfirming(null)}
              onRestore={() => restore.mutate(v)}
            />
          ))}
        </ul>
      )}

      {versions.length > 0 && from !== null && (
        <CompareSection
          paperId={paperId}
          versions={versions}
          from={from}
          to={toSide}
          revision={revision}
          liveRows={liveRows}
          onFrom={setFromChoice}
          onTo={setTo}
          onSwap={() => {
            setFromChoice(toSide);
            setTo(from);
          }}
          onSelect={onSelect}
        />
      )}

      <RevisionHistory
        paperId={paperId}
        canEdit={canEdit}
        liveRows={liveRows}
        revision={revision}
        onRestored={onRestored}
        onSelect={onSelect}
      />
    </PanelFrame>
  );
}

function SaveVersionForm({ paperId, onSaved }: { paperId: string; onSaved(): void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const save = useMutation({
    mutationFn: (versionName: string) =>
      fetchJson<{ version: RubricVersion }>(
        `/api/papers/${paperId}/rubric/versions`,
        jsonInit("POST", { name: versionName }),
      ),
    onMutate: () => setError(null),
    onSuccess: ({ version }) => {
      toast.success(`Saved version “${version.name}” (revision ${version.revision})`);
      setName("");
      onSaved();
    },
    onError: (err) => setError(err.message),
  });
  const trimmed = name.trim();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (trimmed.length === 0) {
      setError("Give the version a name");
      return;
    }
    if (!save.isPending) save.mutate(trimmed);
  }

  return (
    <form onSubmit={submit} className="space-y-1" aria-label="Save a named version">
      <label htmlFor={inputId} className="sr-only">
        Version name
      </label>
      <div className="flex gap-1.5">
        <Input
          id={inputId}
          value={name}
          maxLength={NAME_MAX}
          placeholder="Version name, e.g. Before review"
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setName(e.target.value);
            if (error) setError(null);
          }}
          className="py-1 text-xs"
          data-testid="version-name"
        />
        <Button
          type="submit"
          className="shrink-0 px-2.5 py-1 text-xs"
          disabled={save.isPending || trimmed.length === 0}
        >
          <Save size={13} aria-hidden />
          {save.isPending ? "Saving…" : "Save version"}
        </Button>
      </div>
      <FormError error={error} />
    </form>
  );
}

function authorOf(v: RubricVersion): string {
  return v.createdBy ? (v.createdBy.name ?? v.createdBy.email) : "unknown";
}

function VersionItem({
  version: v,
  now,
  live,
  role_,
  canEdit,
  confirming,
  restoring,
  restoreError,
  onCompare,
  onAskRestore,
  onCancelRestore,
  onRestore,
}: {
  version: RubricVersion;
  now: number;
  live: boolean;
  role_: "from" | "to" | null;
  canEdit: boolean;
  confirming: boolean;
  restoring: boolean;
  restoreError: string | null;
  onCompare(): void;
  onAskRestore(): void;
  onCancelRestore(): void;
  onRestore(): void;
}) {
  const created = new Date(v.createdAt);
  return (
    <li data-testid="version-item" data-version-id={v.id} className={`px-2.5 py-2 ${role_ ? "bg-indigo-50/50" : ""}`}>
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-1.5">
            <span className="truncate font-medium text-zinc-900" title={v.name}>
              {v.name}
            </span>
            <span className="shrink-0 rounded bg-zinc-100 px-1 font-mono text-[11px] text-zinc-600">
              rev {v.revision}
            </span>
            {live && (
              <span
                className="shrink-0 rounded bg-emerald-50 px-1 text-[11px] text-emerald-700 ring-1 ring-inset ring-emerald-200"
                title="The live rubric has not changed since"
              >
                = live
              </span>
            )}
            {role_ && (
              <span className="shrink-0 rounded bg-indigo-100 px-1 text-[11px] font-medium text-indigo-700">
                {role_ === "from" ? "A" : "B"}
              </span>
            )}
          </div>
          <div className="mt-0.5 truncate text-xs text-zinc-500">
            {authorOf(v)} ·{" "}
            <time
              dateTime={v.createdAt}
              title={Number.isNaN(created.getTime()) ? v.createdAt : created.toLocaleString("en")}
            >
              {relativeTime(v.createdAt, now)}
            </time>
          </div>
        </div>
        {!confirming && (
          <div className="flex shrink-0 items-center gap-0.5">
            <IconButton small label={`Compare ${v.name} with the live rubric`} onClick={onCompare}>
              <GitCompareArrows size={14} aria-hidden />
            </IconButton>
            {canEdit && (
              <IconButton small label={`Restore ${v.name}`} onClick={onAskRestore} testId="version-restore">
                <RotateCcw size={14} aria-hidden />
              </IconButton>
            )}
          </div>
        )}
      </div>
      {confirming && (
        <RestoreConfirm
          label={`Restore ${v.name}?`}
          className="mt-2"
          error={restoreError}
          restoring={restoring}
          confirmText="Restore this version"
          testId="version-restore-confirm"
          onRestore={onRestore}
          onCancel={onCancelRestore}
        >
          Make the live rubric equal to <strong>{v.name}</strong>? Everyone editing sees the change at once; Ctrl+Z
          undoes it.
        </RestoreConfirm>
      )}
    </li>
  );
}
