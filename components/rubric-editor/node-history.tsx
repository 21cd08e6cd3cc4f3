"use client";

import { useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useState } from "react";
import { fetchJson } from "@/components/api/client";
import { describeOperationFor } from "@/lib/rubric/describe-operation";
import type { RubricOperation } from "@/lib/rubric/operations";

interface HistoryEntry {
  revision: number;
  kind: string;
  createdAt: string;
  user: { name: string | null; email: string } | null;
  op: RubricOperation;
}

/**
 * Who changed the selected node, when and how, from the operation log. Loaded when opened, and
 * again at each new revision while open.
 */
export function NodeHistory({ paperId, nodeKey, revision }: { paperId: string; nodeKey: string; revision: number }) {
  const [open, setOpen] = useState(false);
  const history = useQuery({
    queryKey: ["node-history", paperId, nodeKey, revision],
    queryFn: () =>
      fetchJson<{ history: HistoryEntry[] }>(
        `/api/papers/${encodeURIComponent(paperId)}/rubric/nodes/${nodeKey}/history`,
      ).then((r) => r.history),
    enabled: open,
  });
  return (
    <details
      className="mt-4 border-t border-zinc-200 pt-3 text-xs"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="node-history"
    >
      <summary className="flex cursor-pointer items-center gap-1.5 font-medium text-zinc-700">
        <History size={13} aria-hidden /> History
      </summary>
      <div className="mt-2">
        {history.isPending && open && <p className="text-zinc-500">Loading…</p>}
        {history.isError && <p className="text-red-700">{history.error.message}</p>}
        {history.data?.length === 0 && <p className="text-zinc-500">No changes since the rubric was imported.</p>}
        <ol className="space-y-1.5">
          {history.data?.map((h) => (
            <li key={h.revision} data-testid="node-history-item">
              <span className="font-medium text-zinc-800">{h.user?.name ?? h.user?.email ?? "someone"}</span>{" "}
              <span className="text-zinc-700">{describeOperationFor(h.op, nodeKey).join("; ")}</span>
              <span className="block text-[11px] text-zinc-500">
                revision {h.revision} · {new Date(h.createdAt).toLocaleString("en")}
              </span>
            </li>
          ))}
        </ol>
      </div>
    </details>
  );
}
