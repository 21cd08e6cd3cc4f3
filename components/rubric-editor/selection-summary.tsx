"use client";

import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { formatShare } from "@/lib/rubric/shares";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import type { Derived } from "./derive";
import { topMost } from "./rubric-edits";

/** What the inspector shows when no node, or several nodes, are selected. */

export function NothingSelected({ canEdit }: { canEdit: boolean }) {
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-md border border-dashed border-zinc-300 px-4 py-8 text-center text-sm text-zinc-600"
      data-testid="inspector-empty"
    >
      <p className="font-medium text-zinc-800">Select a node to see its details</p>
      <p className="text-xs text-zinc-500">
        Click a row, or use the arrow keys in the tree.
        {canEdit && " Enter edits the text, a adds a child, s a sibling."} Press ? for every shortcut.
      </p>
    </div>
  );
}

export function MultiSelection({
  keys,
  derived,
  canEdit,
  onDelete,
}: {
  keys: string[];
  derived: Derived;
  canEdit: boolean;
  onDelete(): void;
}) {
  const set = new Set(keys);
  const top = topMost(derived.index, set).map((k) => derived.index.byKey.get(k)!);
  const share = top.reduce((s, r) => s + (derived.shares.get(r.key) ?? 0), 0);
  const nodes = top.reduce((n, r) => n + derived.index.subtreeKeys(r.key).length, 0);
  return (
    <div className="space-y-4" data-testid="inspector-multi">
      <div>
        <p className="text-sm font-medium text-zinc-900">{keys.length} nodes selected</p>
        <p className="text-xs text-zinc-500">
          {top.length} subtree{top.length === 1 ? "" : "s"}, {nodes.toLocaleString("en")} nodes in all,{" "}
          {formatShare(share)} of the final score
        </p>
      </div>
      <ul className="max-h-80 space-y-1 overflow-auto text-xs text-zinc-700">
        {top.slice(0, 100).map((r: NodeRow) => (
          <li key={r.key} className="truncate" title={r.requirements}>
            • {r.requirements.trim() || "(empty)"}
          </li>
        ))}
      </ul>
      {canEdit && <p className="text-xs text-zinc-500">Drag them together to move them, or delete them all at once.</p>}
      {canEdit && (
        <Button variant="danger" onClick={onDelete} disabled={top.some((r) => r.parentKey === null)}>
          <Trash2 size={14} /> Delete {nodes.toLocaleString("en")} nodes
        </Button>
      )}
    </div>
  );
}
