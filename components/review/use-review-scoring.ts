"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { toast } from "sonner";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import type { ReviewModel } from "@/lib/review/review-model";
import type { ReviewCommitResult, ReviewPayload } from "@/lib/review/types";
import { assignmentsQueryKey } from "./assignments-dialog";
import { leafQueryKey, type ScoreDraft } from "./leaf-panel";
import { reviewQueryKey } from "./use-review-model";

/** The score being chosen for a leaf and the reason typed for it. */
export interface ScoreDraftState {
  draft: ScoreDraft | null;
  setDraft: Dispatch<SetStateAction<ScoreDraft | null>>;
  reason: string;
  setReason: Dispatch<SetStateAction<string>>;
}

export function useScoreDraft(): ScoreDraftState {
  const [draft, setDraft] = useState<ScoreDraft | null>(null);
  const [reason, setReason] = useState("");
  return { draft, setDraft, reason, setReason };
}

/**
 * Scoring the selected leaf: 0 / 1 commits a confirmation (or a blind score) at once, a change waits
 * for its reason. A blind score that turns out to differ from the verdict overrides it on the
 * server, marked "Blind review" (the grader could not see what they changed, so no reason is asked
 * and the reason box does not take the focus). A commit shows at once (the model's local commit)
 * and is undone if the server refuses it; `pending` counts the commits on their way. `onCommitted`
 * (auto-advance) runs once a commit needs nothing more: at once for a visible verdict, on the
 * server's answer for a blind one (which reveals it).
 */
export function useReviewScoring({
  model,
  gradingId,
  viewer,
  selectedKey,
  selectedAt,
  reasonRef,
  drafts,
  onCommitted,
}: {
  model: ReviewModel;
  gradingId: string;
  viewer: Pick<ReviewPayload["viewer"], "canReview" | "role">;
  selectedKey: string | null;
  selectedAt: RefObject<number>;
  reasonRef: RefObject<HTMLTextAreaElement | null>;
  drafts: ScoreDraftState;
  onCommitted: (() => void) | null;
}) {
  const queryClient = useQueryClient();
  const { setDraft, setReason } = drafts;
  const [pending, setPending] = useState(0);
  const inFlight = useRef(0);
  const latest = useRef({ model, selectedKey, draft: drafts.draft, reason: drafts.reason, onCommitted });
  latest.current = { model, selectedKey, draft: drafts.draft, reason: drafts.reason, onCommitted };

  const commit = useCallback(
    async (key: string, score: number, why: string) => {
      const m = latest.current.model;
      const timeSpentMs = Math.max(0, Math.round(performance.now() - selectedAt.current));
      let local;
      try {
        local = m.commitLocal(key, score);
      } catch (err) {
        toast.error(err instanceof Error ? err.message : String(err));
        return;
      }
      setDraft(null);
      setReason("");
      if (document.activeElement === reasonRef.current) reasonRef.current?.blur();
      if (!local.blind) latest.current.onCommitted?.();
      inFlight.current++;
      setPending((n) => n + 1);
      try {
        const result = await fetchJson<ReviewCommitResult>(
          `/api/gradings/${gradingId}/scores`,
          jsonInit("POST", { nodeKey: key, score, reason: why, timeSpentMs }),
        );
        inFlight.current--;
        const agrees = m.confirm(result.leaf, result.rootScore);
        if (!agrees && inFlight.current === 0) {
          toast.info("Someone else changed this grading meanwhile: reloaded it");
          void refetchAfterChange(queryClient, reviewQueryKey(gradingId));
        }
        if (local.blind) {
          // The verdict is revealed; a differing score has already overridden it (marked "Blind
          // review"). Nothing waits on the grader, so the focus stays where it was and j / k go on.
          toast.message(
            result.override
              ? `Committed ${score}: it differs from the leaf's score (${result.override.oldScore}) and overrides it, marked "Blind review".`
              : `Committed ${score}. It agrees with the leaf's score.`,
          );
          if (latest.current.selectedKey === key) latest.current.onCommitted?.();
        }
        if (result.reviewedAt && !m.payload.grading.reviewedAt) {
          m.payload.grading.reviewedAt = result.reviewedAt;
          toast.success("Every leaf of this grading has now been reviewed");
        }
        void refetchAfterChange(queryClient, leafQueryKey(gradingId, key));
        void refetchAfterChange(queryClient, assignmentsQueryKey(gradingId));
      } catch (err) {
        inFlight.current--;
        local.undo();
        toast.error(err instanceof Error ? err.message : String(err));
      } finally {
        setPending((n) => n - 1);
      }
    },
    [gradingId, queryClient, selectedAt, reasonRef, setDraft, setReason],
  );

  const focusReason = useCallback(() => {
    requestAnimationFrame(() => reasonRef.current?.focus());
  }, [reasonRef]);

  /** 0 / 1 (keys or buttons): commits a confirmation (or a blind score) at once; a change waits for its reason. */
  const setScore = useCallback(
    (score: number) => {
      const { model: m, selectedKey: key } = latest.current;
      if (!key || !m.isLeaf(key)) {
        toast.info("Select a leaf first (j / k)");
        return;
      }
      if (!viewer.canReview) {
        toast.error(`Your role on this paper (${viewer.role}) cannot review gradings`);
        return;
      }
      if (!m.inScope(key)) {
        toast.error("This leaf is outside the part of the grading assigned to you");
        return;
      }
      const leaf = m.leaf(key)!;
      if (leaf.hidden === "blind" || (score === m.effectiveScore(key) && !m.isInvalid(key))) {
        void commit(key, score, "");
        return;
      }
      setDraft({ key, score });
      focusReason();
    },
    [commit, focusReason, viewer.canReview, viewer.role, setDraft],
  );

  const commitDraft = useCallback(() => {
    const { model: m, selectedKey: key, draft: d, reason: why } = latest.current;
    if (!key) return;
    if (!d || d.key !== key) {
      toast.info("Choose a score first: 0 or 1");
      return;
    }
    const changes = d.score !== m.effectiveScore(key) || m.isInvalid(key);
    if (changes && !why.trim() && !m.isInvalid(key)) {
      toast.error("Say why you change the score: the reason is required");
      reasonRef.current?.focus();
      return;
    }
    void commit(key, d.score, why);
  }, [commit, reasonRef]);

  const cancelDraft = useCallback(() => {
    setDraft(null);
    setReason("");
    reasonRef.current?.blur();
  }, [reasonRef, setDraft, setReason]);

  return { pending, setScore, commitDraft, cancelDraft, focusReason };
}
