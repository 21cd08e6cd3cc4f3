"use client";

import { ChevronsDownUp, ChevronsUpDown, WrapText } from "lucide-react";
import type { Dispatch, SetStateAction } from "react";
import { IconButton } from "@/components/ui/icon-button";
import { NO_CATEGORY, NO_REVIEW_FILTERS, type ReviewFilters } from "@/lib/review/review-model";

/** Above the graded tree: the leaf filters, how many leaves they keep, wrapping rows, expand and collapse all. */
export function ReviewFilterBar({
  filters,
  setFilters,
  categories,
  filterActive,
  matchCount,
  unsureCount,
  wrapRows,
  onWrapRows,
  onExpandAll,
  onCollapseAll,
}: {
  filters: ReviewFilters;
  setFilters: Dispatch<SetStateAction<ReviewFilters>>;
  categories: readonly string[];
  filterActive: boolean;
  matchCount: number;
  /** Leaves of the tree flagged "unsure": shown on the filter. */
  unsureCount: number;
  wrapRows: boolean;
  onWrapRows(wrap: boolean): void;
  onExpandAll(): void;
  onCollapseAll(): void;
}) {
  return (
    <div
      className="flex flex-wrap items-center gap-1.5 border-b border-zinc-200 px-2 py-1.5"
      data-testid="review-filters"
    >
      {(
        [
          ["unreviewed", "Unreviewed"],
          ["invalid", "Invalid"],
          ["disagreement", "Judge ≠ human"],
          ["unsure", `Unsure (${unsureCount.toLocaleString("en")})`],
        ] as const
      ).map(([k, label]) => (
        <button
          key={k}
          type="button"
          aria-pressed={filters[k]}
          data-testid={`filter-${k}`}
          onClick={() => setFilters((f) => ({ ...f, [k]: !f[k] }))}
          className={`h-7 rounded-md border px-2 text-xs font-medium ${
            filters[k]
              ? "border-indigo-400 bg-indigo-50 text-indigo-800"
              : "border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50"
          }`}
        >
          {label}
        </button>
      ))}
      <select
        aria-label="Category"
        data-testid="filter-category"
        value={filters.category}
        onChange={(e) => setFilters((f) => ({ ...f, category: e.target.value }))}
        className="h-7 rounded-md border border-zinc-300 bg-white px-1 text-xs text-zinc-700"
      >
        <option value="">Any category</option>
        {categories.map((c) => (
          <option key={c} value={c}>
            {c === NO_CATEGORY ? "No category" : c}
          </option>
        ))}
      </select>
      {filterActive && (
        <span className="flex items-center gap-1 text-xs text-zinc-600" data-testid="filter-count">
          {matchCount.toLocaleString("en")} {matchCount === 1 ? "leaf" : "leaves"}
          <button
            type="button"
            onClick={() => setFilters(NO_REVIEW_FILTERS)}
            className="rounded px-1 text-indigo-700 hover:bg-indigo-50"
          >
            Clear
          </button>
        </span>
      )}
      <span className="ml-auto flex items-center gap-1">
        <button
          type="button"
          aria-pressed={wrapRows}
          data-testid="wrap-rows"
          title={wrapRows ? "Rows take two lines: show one line each" : "Rows take one line: let them wrap to two"}
          onClick={() => onWrapRows(!wrapRows)}
          className={`flex h-7 items-center gap-1 rounded-md border px-1.5 text-xs font-medium ${
            wrapRows
              ? "border-indigo-400 bg-indigo-50 text-indigo-800"
              : "border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50"
          }`}
        >
          <WrapText size={14} aria-hidden />
          Wrap
        </button>
        <IconButton label="Expand all" onClick={onExpandAll} bordered>
          <ChevronsUpDown size={14} />
        </IconButton>
        <IconButton label="Collapse all" onClick={onCollapseAll} bordered>
          <ChevronsDownUp size={14} />
        </IconButton>
      </span>
    </div>
  );
}
