"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BadgeCheck } from "lucide-react";
import { useEffect, useMemo, useRef } from "react";
import { toast } from "sonner";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import type { RubricStore } from "./rubric-store";

type Status = "draft" | "in_review" | "signed_off";

interface Review {
  status: Status;
  revision: number;
  history: {
    status: Status;
    revision: number;
    reason: string | null;
    createdAt: string;
    user: { name: string | null; email: string } | null;
  }[];
}

const LABEL: Record<Status, string> = { draft: "Draft", in_review: "In review", signed_off: "Signed off" };
const STYLE: Record<Status, string> = {
  draft: "bg-zinc-100 text-zinc-700",
  in_review: "bg-amber-50 text-amber-800",
  signed_off: "bg-emerald-50 text-emerald-800",
};

const reviewQueryKey = (paperId: string) => ["review", paperId];

/** The rubric's review status, one query shared by everything in the editor that shows it. */
function useReview(paperId: string, revision: number) {
  return useQuery({
    queryKey: reviewQueryKey(paperId),
    queryFn: () => fetchJson<Review>(`/api/papers/${encodeURIComponent(paperId)}/rubric/review`),
    enabled: revision > 0,
  });
}

/**
 * Before anyone who may edit changes a signed-off rubric: a change to its nodes returns it to
 * draft (and tells its authors), so they know it before their first edit, not after.
 */
export function SignedOffNotice({
  paperId,
  revision,
  canEdit,
}: {
  paperId: string;
  revision: number;
  canEdit: boolean;
}) {
  const review = useReview(paperId, revision);
  if (!canEdit || review.data?.status !== "signed_off") return null;
  return (
    <p
      role="note"
      data-testid="signed-off-notice"
      className="flex items-center gap-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-1.5 text-xs text-emerald-900"
    >
      <BadgeCheck size={14} aria-hidden className="shrink-0" />
      <span>
        Signed off at revision {review.data.revision}. Any change to its nodes returns the rubric to draft, and its
        authors are told.
      </span>
    </p>
  );
}

/**
 * The rubric's review status in the editor header: request review, sign off the revision on
 * screen, return to draft. While signed off it is reloaded at every new revision, so a change after
 * sign-off shows everyone that the rubric is a draft again.
 */
export function ReviewStatus({
  paperId,
  revision,
  canEdit,
  store,
}: {
  paperId: string;
  revision: number;
  canEdit: boolean;
  store: RubricStore;
}) {
  const queryClient = useQueryClient();
  const previous = useRef<Status | null>(null);
  const ownChange = useRef(false);
  const queryKey = useMemo(() => reviewQueryKey(paperId), [paperId]);
  const review = useReview(paperId, revision);
  // Only a change to a signed-off rubric moves its status (back to draft): reload at a new revision
  // then, rather than on every edit of every open editor.
  useEffect(() => {
    if (previous.current === "signed_off") void refetchAfterChange(queryClient, queryKey);
  }, [revision, queryClient, queryKey]);
  // Someone changed the status (requested review, signed off): the live feed says so.
  useEffect(
    () => store.onLive("review", () => void refetchAfterChange(queryClient, queryKey)),
    [store, queryClient, queryKey],
  );
  const change = useMutation({
    mutationFn: (action: "request_review" | "sign_off" | "return_to_draft") =>
      fetchJson<Review>(
        `/api/papers/${encodeURIComponent(paperId)}/rubric/review`,
        jsonInit("POST", { action, revision }),
      ),
    onSuccess: (data) => {
      ownChange.current = true;
      queryClient.setQueryData(queryKey, data);
      if (data.status === "signed_off") toast.success(`Signed off revision ${data.revision}; saved as a named version`);
    },
    onError: (err) => toast.error(err.message),
  });

  // Signed off, then changed (by anyone): say so.
  const status = review.data?.status ?? null;
  useEffect(() => {
    const latestEvent = review.data?.history[0];
    if (previous.current === "signed_off" && status === "draft" && latestEvent?.reason) {
      toast.warning("The rubric changed after sign-off and is a draft again", { description: latestEvent.reason });
    } else if (previous.current && status && previous.current !== status && latestEvent?.user && !ownChange.current) {
      // Someone else moved it: say who (one's own change has its own toast).
      toast.info(
        `${latestEvent.user.name ?? latestEvent.user.email}: ${LABEL[status].toLowerCase()} at revision ${latestEvent.revision}`,
      );
    }
    ownChange.current = false;
    if (status) previous.current = status;
  }, [status, review.data]);

  if (!review.data) return null;
  const { history } = review.data;
  return (
    <details className="relative shrink-0 text-xs" data-testid="review-status">
      <summary
        className={`flex cursor-pointer list-none items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 font-medium ${STYLE[review.data.status]}`}
      >
        {review.data.status === "signed_off" && <BadgeCheck size={12} aria-hidden />}
        <span data-testid="review-status-label">{LABEL[review.data.status]}</span>
      </summary>
      <div className="absolute left-0 z-30 mt-1 w-72 space-y-2 rounded-lg border border-zinc-200 bg-white p-3 shadow-lg">
        {canEdit && (
          <div className="flex flex-wrap gap-1.5">
            {review.data.status === "draft" && (
              <button
                type="button"
                className="rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-50"
                onClick={() => change.mutate("request_review")}
              >
                Request review
              </button>
            )}
            {review.data.status !== "signed_off" && (
              <button
                type="button"
                className="rounded bg-emerald-600 px-2 py-1 text-white hover:bg-emerald-700"
                onClick={() => change.mutate("sign_off")}
              >
                Sign off revision {revision}
              </button>
            )}
            {review.data.status !== "draft" && (
              <button
                type="button"
                className="rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-50"
                onClick={() => change.mutate("return_to_draft")}
              >
                Return to draft
              </button>
            )}
          </div>
        )}
        <ol className="max-h-48 space-y-1 overflow-auto" data-testid="review-history">
          {history.length === 0 && <li className="text-zinc-500">No review yet.</li>}
          {history.map((h, i) => (
            <li key={i} className="text-zinc-700">
              <span className="font-medium">{LABEL[h.status]}</span> at revision {h.revision}
              {h.user ? ` by ${h.user.name ?? h.user.email}` : ""}
              {h.reason ? ` — ${h.reason}` : ""}
              <span className="block text-[11px] text-zinc-500">{new Date(h.createdAt).toLocaleString("en")}</span>
            </li>
          ))}
        </ol>
      </div>
    </details>
  );
}
