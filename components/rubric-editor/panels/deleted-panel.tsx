"use client";

import { useQuery } from "@tanstack/react-query";
import { ArchiveRestore, Trash2 } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { toast } from "sonner";
import { buttonClass } from "@/components/ui/button";
import { fetchJson } from "@/components/api/client";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import type { SubmitOptions, SubmitResult } from "../rubric-store-types";
import { EmptyState, LoadError, PanelFrame, plural, relativeTime, truncateText, useNow } from "./panel-ui";

/** One entry of `GET /api/papers/<id>/rubric/deleted` (db/queries/rubric-deleted.ts). */
interface DeletedSubtree {
  key: string;
  requirements: string;
  parentRequirements: string | null;
  nodeCount: number;
  deletedRevision: number;
  deletedAt: string | null;
  deletedBy: { name: string | null; email: string } | null;
  kind: string | null;
  enclosedBy: { key: string; requirements: string; deletedRevision: number }[];
}

/**
 * What was deleted from the rubric, newest first, with who deleted it and when; each can be
 * restored (the `restore` operation, through the editor's queue, so it is undoable). A subtree whose
 * parent was deleted afterwards cannot come back on its own (the server refuses a restore under a
 * deleted node): the panel says so and restores the enclosing deletes with it, outermost first.
 */
export function DeletedPanel({
  paperId,
  canEdit,
  liveRows,
  revision,
  submit,
  onSelect,
}: {
  paperId: string;
  canEdit: boolean;
  liveRows: readonly NodeRow[];
  revision: number;
  submit(op: RubricOperation, options: SubmitOptions): SubmitResult;
  onSelect(key: string): void;
}) {
  const now = useNow();
  const list = useQuery({
    queryKey: ["rubric-deleted", paperId, revision],
    queryFn: () =>
      fetchJson<{ deleted: DeletedSubtree[] }>(`/api/papers/${encodeURIComponent(paperId)}/rubric/deleted`).then(
        (r) => r.deleted,
      ),
    // Between revisions the previous list stays on screen instead of a loading state.
    placeholderData: (previous) => previous,
  });
  const [restoring, setRestoring] = useState<{ key: string; count: number } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  // Once the restored node is back in the tree, show it there.
  const liveKeys = useMemo(() => new Set(liveRows.map((r) => r.key)), [liveRows]);
  useEffect(() => {
    if (!restoring || !liveKeys.has(restoring.key)) return;
    toast.success(`Restored ${plural(restoring.count, "node")} — Undo with Ctrl+Z`);
    onSelect(restoring.key);
    setRestoring(null);
  }, [restoring, liveKeys, onSelect]);

  function restore(item: DeletedSubtree) {
    const keys = [...item.enclosedBy.map((e) => e.key), item.key];
    const op: RubricOperation =
      keys.length === 1
        ? { kind: "restore", keys }
        : { kind: "batch", ops: keys.map((k) => ({ kind: "restore" as const, keys: [k] })) };
    setErrors(({ [item.key]: _gone, ...rest }) => rest);
    const res = submit(op, {
      label:
        keys.length === 1
          ? "Restore deleted nodes"
          : `Restore deleted nodes with ${plural(keys.length - 1, "enclosing part")}`,
      onError: (message) => {
        setRestoring(null);
        setErrors((e) => ({ ...e, [item.key]: message }));
      },
    });
    // The enclosing parts come back whole: count their nodes too.
    const count = item.enclosedBy.reduce(
      (n, e) => n + (list.data?.find((d) => d.key === e.key)?.nodeCount ?? 0),
      item.nodeCount,
    );
    if (res.ok) setRestoring({ key: item.key, count });
    else setErrors((e) => ({ ...e, [item.key]: res.message }));
  }

  const items = list.data ?? [];
  return (
    <PanelFrame
      title="Deleted"
      testId="deleted-panel"
      subtitle={items.length > 0 ? plural(items.length, "deleted part") : undefined}
    >
      {list.isPending && <p className="text-xs text-zinc-500">Loading deleted nodes…</p>}
      {list.isError && <LoadError message={list.error.message} onRetry={() => void list.refetch()} />}
      {list.isSuccess && items.length === 0 && (
        <EmptyState testId="deleted-empty" icon={<Trash2 size={20} className="text-zinc-400" aria-hidden />}>
          <p className="font-medium text-zinc-700">Nothing deleted</p>
          <span className="mt-1 block text-xs text-zinc-500">
            Deleted nodes show here with who deleted them and when{canEdit ? ", and can be restored" : ""}. A new upload
            of rubric.json replaces the tree and clears this list.
          </span>
        </EmptyState>
      )}
      {items.length > 0 && (
        <ul
          className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white"
          aria-label="Deleted parts of the rubric"
        >
          {items.map((item) => (
            <DeletedItem
              key={item.key}
              item={item}
              now={now}
              canEdit={canEdit}
              busy={restoring?.key === item.key}
              error={errors[item.key] ?? null}
              onRestore={() => restore(item)}
            />
          ))}
        </ul>
      )}
    </PanelFrame>
  );
}

function DeletedItem({
  item,
  now,
  canEdit,
  busy,
  error,
  onRestore,
}: {
  item: DeletedSubtree;
  now: number;
  canEdit: boolean;
  busy: boolean;
  error: string | null;
  onRestore(): void;
}) {
  const who = item.deletedBy ? (item.deletedBy.name ?? item.deletedBy.email) : "someone";
  const how = item.kind === "batch" ? " (restoring a version, or an undo)" : "";
  const enclosing = item.enclosedBy[0];
  return (
    <li className="space-y-1 px-2.5 py-2 text-xs" data-testid="deleted-item" data-key={item.key}>
      <p className="text-[13px] text-zinc-900" title={item.requirements} data-testid="deleted-text">
        {truncateText(item.requirements, 110)}
      </p>
      <p className="text-zinc-500">
        {plural(item.nodeCount, "node")}
        {item.parentRequirements !== null && <> · was under “{truncateText(item.parentRequirements, 40)}”</>}
      </p>
      <div className="flex items-end gap-2">
        <p className="min-w-0 flex-1 text-zinc-500">
          Deleted by {who}
          {how}
          {item.deletedAt && (
            <>
              {" "}
              ·{" "}
              <time dateTime={item.deletedAt} title={new Date(item.deletedAt).toLocaleString("en")}>
                {relativeTime(item.deletedAt, now)}
              </time>
            </>
          )}{" "}
          · <span className="font-mono">rev {item.deletedRevision}</span>
        </p>
        {canEdit && (
          <button
            type="button"
            className={buttonClass("secondary", "shrink-0 px-2 py-1 text-xs")}
            onClick={onRestore}
            disabled={busy}
            data-testid="deleted-restore"
            title={enclosing ? "Restores the deleted parts around it first" : "Put it back where it was"}
          >
            <ArchiveRestore size={13} aria-hidden />
            {busy ? "Restoring…" : enclosing ? "Restore with its parent" : "Restore"}
          </button>
        )}
      </div>
      {enclosing && (
        <p
          className="rounded border border-amber-200 bg-amber-50 px-2 py-1 text-amber-900"
          data-testid="deleted-enclosed"
        >
          Its parent was deleted later, with “{truncateText(enclosing.requirements, 50)}” (rev{" "}
          {enclosing.deletedRevision}). A node cannot come back under a deleted one, so restoring it also restores{" "}
          {item.enclosedBy.length === 1 ? "that part" : `those ${item.enclosedBy.length} parts`} first.
        </p>
      )}
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
    </li>
  );
}
