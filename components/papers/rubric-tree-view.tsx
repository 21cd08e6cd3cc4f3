"use client";

import { ChevronDown, ChevronRight } from "lucide-react";
import { useState } from "react";
import type { RubricNode } from "@/lib/rubric/types";

const CATEGORY_STYLE: Record<string, string> = {
  "Code Development": "bg-sky-50 text-sky-800",
  "Code Execution": "bg-emerald-50 text-emerald-800",
  "Result Analysis": "bg-violet-50 text-violet-800",
};

/** Read-only tree; children render only when opened, so a 2,500-node rubric stays light. */
export function RubricTreeView({ tree }: { tree: RubricNode }) {
  return (
    <ul
      role="tree"
      aria-label="Rubric tree"
      className="rounded-md border border-zinc-200 p-2 text-sm"
      data-testid="rubric-tree"
    >
      <TreeItem node={tree} depth={0} defaultOpen />
    </ul>
  );
}

function TreeItem({ node, depth, defaultOpen = false }: { node: RubricNode; depth: number; defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const isLeaf = node.sub_tasks.length === 0;
  return (
    <li role="treeitem" aria-expanded={isLeaf ? undefined : open} aria-selected={false}>
      <div
        className="flex items-start gap-1.5 rounded px-1 py-0.5 hover:bg-zinc-50"
        style={{ paddingLeft: depth * 16 }}
      >
        {isLeaf ? (
          <span className="inline-block w-4" />
        ) : (
          <button
            type="button"
            aria-label={open ? "Collapse" : "Expand"}
            onClick={() => setOpen(!open)}
            className="mt-0.5 text-zinc-500 hover:text-zinc-900"
          >
            {open ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
          </button>
        )}
        <span className="flex-1 whitespace-pre-wrap">{node.requirements}</span>
        <span className="shrink-0 font-mono text-xs text-zinc-500" title="weight">
          ×{node.weight}
        </span>
        {node.task_category && (
          <span
            className={`shrink-0 rounded px-1.5 text-xs ${CATEGORY_STYLE[node.task_category] ?? "bg-red-50 text-red-800"}`}
          >
            {node.task_category}
          </span>
        )}
      </div>
      {!isLeaf && open && (
        <ul role="group">
          {node.sub_tasks.map((child, i) => (
            <TreeItem key={i} node={child} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}
