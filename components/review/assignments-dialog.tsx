"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { HiddenVerdictIcon } from "@/components/ui/hidden-verdict";
import { ProgressBar } from "@/components/ui/progress-bar";
import { fetchJson, jsonInit } from "@/components/api/client";
import type { ReviewModel } from "@/lib/review/review-model";
import { shortText } from "@/lib/short-text";
import { formatDuration } from "./score-style";

interface AssignmentRow {
  id: string;
  userId: string;
  user: { name: string | null; email: string };
  nodeKeys: string[] | null;
  blind: boolean;
  createdAt: string;
  progress: { reviewed: number; total: number; timeSpentMs: number; lastReviewAt: string | null };
}

interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: "author" | "grader";
}

export const assignmentsQueryKey = (gradingId: string) => ["review-assignments", gradingId] as const;

/**
 * Staff: who reviews this grading (progress and time spent per grader), and assigning it, or the
 * selected subtree, to a grader of the paper, blind or not.
 */
export function AssignmentsDialog({
  open,
  onClose,
  gradingId,
  paperId,
  model,
  subtreeKey,
  initialScope,
}: {
  open: boolean;
  onClose(): void;
  gradingId: string;
  paperId: string;
  model: ReviewModel;
  /** The node whose subtree "Selected subtree" assigns (the tree's selection). */
  subtreeKey: string | null;
  /**
   * The scope the form starts on: "subtree" only when staff asked for it ("Assign this subtree…");
   * the header's Graders button starts on the whole grading, since the page always has a leaf
   * selected and a preselected one-leaf scope would hand a grader a single leaf by mistake.
   */
  initialScope: "all" | "subtree";
}) {
  const queryClient = useQueryClient();
  const assignments = useQuery({
    queryKey: assignmentsQueryKey(gradingId),
    queryFn: () =>
      fetchJson<{ assignments: AssignmentRow[] }>(`/api/gradings/${gradingId}/assignments`).then((r) => r.assignments),
    enabled: open,
  });
  const members = useQuery({
    queryKey: ["members", paperId],
    queryFn: () => fetchJson<{ members: Member[] }>(`/api/papers/${paperId}/members`).then((r) => r.members),
    enabled: open,
  });
  const graders = (members.data ?? []).filter((m) => m.role === "grader");
  const [email, setEmail] = useState("");
  const [scope, setScope] = useState<"all" | "subtree">("all");
  const [blind, setBlind] = useState(false);
  const canSubtree = subtreeKey !== null && model.node(subtreeKey)?.parentKey !== null;
  const subtreeNode = subtreeKey ? model.node(subtreeKey) : undefined;
  const effectiveEmail = email || graders[0]?.email || "";

  const invalidate = () => refetchAfterChange(queryClient, assignmentsQueryKey(gradingId));
  const assign = useMutation({
    mutationFn: () =>
      fetchJson(
        `/api/gradings/${gradingId}/assignments`,
        jsonInit("POST", {
          email: effectiveEmail,
          blind,
          nodeKeys: scope === "subtree" && canSubtree ? [subtreeKey] : null,
        }),
      ),
    onSuccess: () => {
      toast.success(`Assigned to ${effectiveEmail}${blind ? " (blind)" : ""}`);
      return invalidate();
    },
    onError: (err) => toast.error(err.message),
  });
  const remove = useMutation({
    mutationFn: (id: string) => fetchJson(`/api/gradings/${gradingId}/assignments/${id}`, { method: "DELETE" }),
    onSuccess: invalidate,
    onError: (err) => toast.error(err.message),
  });

  useEffect(() => {
    if (open) setScope(initialScope === "subtree" && canSubtree ? "subtree" : "all");
  }, [open, canSubtree, initialScope]);
  if (!open) return null;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!effectiveEmail) {
      toast.error("Choose a grader");
      return;
    }
    assign.mutate();
  }

  const scopeText = (keys: string[] | null) => {
    if (!keys) return "Whole grading";
    const first = model.node(keys[0]);
    return `${keys.length === 1 ? "Subtree" : `${keys.length} subtrees`}: ${first ? shortText(first.requirements, 60) : "(unknown node)"}`;
  };

  return (
    <Dialog onClose={onClose} title="Graders of this grading" testId="assignments-dialog" className="max-w-3xl">
      {assignments.isPending ? (
        <p className="text-sm text-zinc-500">Loading…</p>
      ) : assignments.data?.length === 0 ? (
        <p className="text-sm text-zinc-500" data-testid="no-assignments">
          Nobody is assigned yet.
        </p>
      ) : (
        <table className="w-full text-sm" data-testid="assignment-list">
          <thead>
            <tr className="text-left text-[11px] uppercase tracking-wide text-zinc-500">
              <th className="py-1 font-semibold">Grader</th>
              <th className="py-1 font-semibold">Scope</th>
              <th className="py-1 font-semibold">Progress</th>
              <th className="py-1 text-right font-semibold">Time</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {assignments.data?.map((a) => (
              <tr
                key={a.id}
                className="border-t border-zinc-100"
                data-testid="assignment-row"
                data-email={a.user.email}
              >
                <td className="py-1.5 pr-2">
                  <div className="font-medium text-zinc-900">{a.user.name ?? a.user.email}</div>
                  <div className="text-xs text-zinc-500">{a.user.email}</div>
                </td>
                <td
                  className="py-1.5 pr-2 text-xs text-zinc-700"
                  title={a.nodeKeys ? model.node(a.nodeKeys[0])?.requirements : undefined}
                  data-testid="assignment-scope"
                >
                  {scopeText(a.nodeKeys)}
                  {a.blind && (
                    <span
                      className="ml-1.5 inline-flex items-center gap-0.5 rounded bg-zinc-100 px-1 text-[10px] font-medium text-zinc-600"
                      data-testid="assignment-blind"
                    >
                      <HiddenVerdictIcon blind size={10} /> blind
                    </span>
                  )}
                </td>
                <td className="py-1.5 pr-2">
                  <div className="flex items-center gap-2">
                    <ProgressBar
                      value={a.progress.reviewed}
                      total={a.progress.total}
                      className="h-1.5 w-20 bg-zinc-200"
                      barClassName="bg-emerald-500"
                    />
                    <span className="font-mono text-xs tabular-nums" data-testid="assignment-progress">
                      {a.progress.reviewed}/{a.progress.total}
                    </span>
                  </div>
                </td>
                <td
                  className="py-1.5 text-right font-mono text-xs tabular-nums text-zinc-700"
                  data-testid="assignment-time"
                >
                  {formatDuration(a.progress.timeSpentMs)}
                </td>
                <td className="py-1.5 pl-2 text-right">
                  <button
                    type="button"
                    aria-label={`Remove ${a.user.email}'s assignment`}
                    onClick={() => remove.mutate(a.id)}
                    className="rounded p-1 text-zinc-400 hover:bg-red-50 hover:text-red-700"
                  >
                    <Trash2 size={14} />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <form
        onSubmit={submit}
        className="mt-5 space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-4"
        data-testid="assign-form"
      >
        <h3 className="text-sm font-semibold text-zinc-800">Assign</h3>
        <div className="flex flex-wrap items-center gap-2">
          <label className="text-sm text-zinc-700" htmlFor="assign-email">
            Grader
          </label>
          <input
            id="assign-email"
            data-testid="assign-email"
            list="assign-graders"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder={graders[0]?.email ?? "grader@example.org"}
            className="h-8 w-72 rounded-md border border-zinc-300 bg-white px-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200"
          />
          <datalist id="assign-graders">
            {graders.map((g) => (
              <option key={g.userId} value={g.email}>
                {g.name ?? g.email}
              </option>
            ))}
          </datalist>
        </div>
        <fieldset className="flex flex-wrap gap-4 text-sm text-zinc-700">
          <legend className="sr-only">Scope</legend>
          <label className="flex items-center gap-1.5">
            <input
              type="radio"
              name="scope"
              checked={scope === "all"}
              onChange={() => setScope("all")}
              data-testid="assign-scope-all"
            />
            Whole grading
          </label>
          <label className={`flex min-w-0 items-center gap-1.5 ${canSubtree ? "" : "text-zinc-400"}`}>
            <input
              type="radio"
              name="scope"
              disabled={!canSubtree}
              checked={scope === "subtree"}
              onChange={() => setScope("subtree")}
              data-testid="assign-scope-subtree"
            />
            {/* Wraps between words: a CSS ellipsis would cut the requirement mid-word. */}
            <span
              className="min-w-0"
              data-testid="assign-subtree-label"
              title={subtreeNode && canSubtree ? subtreeNode.requirements : undefined}
            >
              Selected subtree
              {subtreeNode && canSubtree
                ? `: ${shortText(subtreeNode.requirements, 60)}`
                : " (select a node in the tree)"}
            </span>
          </label>
        </fieldset>
        <label className="flex items-center gap-1.5 text-sm text-zinc-700">
          <input
            type="checkbox"
            checked={blind}
            onChange={(e) => setBlind(e.target.checked)}
            data-testid="assign-blind"
          />
          Blind: hide the judge&apos;s verdict on each leaf until the grader has committed a score
        </label>
        <Button type="submit" disabled={assign.isPending} data-testid="assign-submit">
          {assign.isPending ? "Assigning…" : "Assign"}
        </Button>
      </form>
    </Dialog>
  );
}
