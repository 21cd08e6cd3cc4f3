"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import type { TreeApi } from "react-arborist";
import { toast } from "sonner";
import { reviewFiltersActive, type ReviewFilters, type ReviewModel } from "@/lib/review/review-model";
import { fetchLeafDetail, leafQueryKey } from "./leaf-panel";
import type { ReviewTreeItem } from "./review-tree";
import type { ScoreDraftState } from "./use-review-scoring";

/** The node the page opens on: the one its link names when it is in view, else the first leaf to review (else the first leaf). */
export function initialSelection(model: ReviewModel, linked: string | null): string | null {
  if (linked && model.inView(linked)) return linked;
  return model.stepLeaf(null, 1, (key) => model.isToReview(key)) ?? model.stepLeaf(null, 1);
}

/**
 * The selected node of the review page, and moving between leaves (j / k, next unreviewed, a click
 * in the tree). A selection elsewhere drops the score being chosen for another leaf.
 */
export function useReviewSelection({
  model,
  gradingId,
  openOn,
  treeRef,
  treeHeight,
  filters,
  drafts,
}: {
  model: ReviewModel;
  gradingId: string;
  /** The node the page opens on (`initialSelection`). */
  openOn: string | null;
  treeRef: RefObject<TreeApi<ReviewTreeItem> | null>;
  treeHeight: number;
  filters: ReviewFilters;
  drafts: ScoreDraftState;
}) {
  const queryClient = useQueryClient();
  const { setDraft, setReason } = drafts;
  const [selectedKey, setSelectedKey] = useState<string | null>(openOn);
  /** When the selection last changed: a commit reports the time spent on its leaf. */
  const selectedAt = useRef(0);
  useEffect(() => {
    selectedAt.current = performance.now();
  }, [selectedKey]);

  // The latest values for the stable callbacks (keyboard, tree).
  const latest = useRef({ model, selectedKey, filters, draft: drafts.draft });
  latest.current = { model, selectedKey, filters, draft: drafts.draft };

  const show = useCallback(
    (key: string) => {
      const tree = treeRef.current;
      if (!tree) return;
      tree.dispatch({ type: "FOCUS", id: key } as Parameters<typeof tree.dispatch>[0]);
      void tree.scrollTo(key, "smart");
    },
    [treeRef],
  );

  const select = useCallback(
    (key: string) => {
      setSelectedKey(key);
      setDraft((d) => (d && d.key !== key ? null : d));
      setReason((r) => (latest.current.draft?.key === key ? r : ""));
      show(key);
      // The next leaf's detail loads while this one is read.
      const m = latest.current.model;
      const next = m.stepLeaf(key, 1);
      if (next && !m.leaf(next)?.hidden)
        void queryClient.prefetchQuery({
          queryKey: leafQueryKey(gradingId, next),
          queryFn: () => fetchLeafDetail(gradingId, next),
          staleTime: Infinity,
        });
    },
    [show, queryClient, gradingId, setDraft, setReason],
  );

  // The first leaf to review is shown once the tree is there.
  const shownInitial = useRef(false);
  useEffect(() => {
    if (shownInitial.current || treeHeight === 0 || !selectedKey) return;
    shownInitial.current = true;
    show(selectedKey);
  }, [treeHeight, selectedKey, show]);

  const onFocusKey = useCallback(
    (key: string) => {
      if (key === latest.current.selectedKey) return;
      setSelectedKey(key);
      setDraft(null);
      setReason("");
    },
    [setDraft, setReason],
  );

  const step = useCallback(
    (dir: 1 | -1) => {
      const { model: m, selectedKey: from, filters: f } = latest.current;
      const active = reviewFiltersActive(f);
      const next = m.stepLeaf(from, dir, active ? (k) => m.matches(k, f) : undefined);
      if (next) select(next);
      else toast.info(active ? "No leaf matches the filters" : "This grading has no leaves");
    },
    [select],
  );

  const nextUnreviewed = useCallback(() => {
    const { model: m, selectedKey: from } = latest.current;
    const next = m.stepLeaf(from, 1, (k) => m.isToReview(k));
    if (next) select(next);
    else toast.success("Every leaf in your scope has been reviewed or marked unsure");
  }, [select]);

  return { selectedKey, selectedAt, select, onFocusKey, step, nextUnreviewed };
}
