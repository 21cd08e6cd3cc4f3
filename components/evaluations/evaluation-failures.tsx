"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import type { RetryCellsInput, RetryCellsResult } from "@/lib/evaluations/matrix";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { evaluationMatrixKey } from "./evaluation-query";

export interface FailureRow {
  paperId: string;
  run: number;
  /** What the state badge says ("reproduction failed"). */
  label: string;
  reason: string;
  submissionId: string | null;
  /** A flagged run has nothing to retry: its agent's log stays what it was. */
  retryable: boolean;
}

/**
 * The failed cells with their reasons, a Retry per cell and "Retry all failed" (confirmed). One
 * request at a time: every button waits while one is in flight, and the server's refusal is shown
 * where it was asked.
 */
export function EvaluationFailures({ evaluationId, failures }: { evaluationId: string; failures: FailureRow[] }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const retry = useMutation({
    mutationFn: (body: RetryCellsInput) =>
      fetchJson<RetryCellsResult>(`/api/evaluations/${encodeURIComponent(evaluationId)}/retry`, jsonInit("POST", body)),
    onSuccess: () => {
      setConfirming(false);
      return refetchAfterChange(queryClient, evaluationMatrixKey(evaluationId));
    },
  });
  const asked = retry.variables;
  const askedCell = (f: FailureRow) =>
    !!asked && "cells" in asked && asked.cells.some((c) => c.paperId === f.paperId && c.run === f.run);

  return (
    <section
      aria-labelledby="failures-title"
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4"
      data-testid="evaluation-failures"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="failures-title" className="text-base font-semibold">
          Failures ({failures.length})
        </h2>
        {failures.some((f) => f.retryable) && (
          <Button
            variant="secondary"
            className="ml-auto"
            onClick={() => setConfirming(true)}
            disabled={retry.isPending}
            data-testid="retry-all-failed"
          >
            <RotateCcw size={14} aria-hidden /> Retry all failed
          </Button>
        )}
      </div>
      {retry.data?.retried === 0 && (
        <p role="status" className="text-sm text-zinc-600" data-testid="retry-nothing">
          Nothing was retried: those cells are running again or already done.
        </p>
      )}
      {retry.isError && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          data-testid="retry-error"
        >
          {retry.error.message}
        </p>
      )}
      {failures.length === 0 ? (
        <p className="text-sm text-zinc-500">No cell has failed.</p>
      ) : (
        <ul className="divide-y divide-zinc-100">
          {failures.map((f) => (
            <li
              key={`${f.paperId}\u0000${f.run}`}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm"
              data-testid="failure"
              data-paper={f.paperId}
              data-run={f.run}
            >
              <span className="font-mono text-xs text-zinc-600">
                {f.paperId} · run {f.run}
              </span>
              <span className="font-medium text-red-800">{f.label}</span>
              <span className="min-w-0 flex-1 text-zinc-700" data-testid="failure-reason">
                {f.reason}
              </span>
              {f.submissionId && (
                <Link href={`/submissions/${f.submissionId}`} className="text-indigo-700 hover:underline">
                  Submission
                </Link>
              )}
              {f.retryable && (
                <Button
                  variant="secondary"
                  onClick={() => retry.mutate({ cells: [{ paperId: f.paperId, run: f.run }] })}
                  disabled={retry.isPending}
                  aria-label={`Retry ${f.paperId} run ${f.run}`}
                  data-testid="retry-cell"
                >
                  <RotateCcw
                    size={14}
                    aria-hidden
                    className={retry.isPending && askedCell(f) ? "animate-spin" : undefined}
                  />{" "}
                  Retry
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Retry all ${failures.filter((f) => f.retryable).length} failed cells?`}
          confirmText="Retry all failed"
          pending={retry.isPending}
          onConfirm={() => retry.mutate({ allFailed: true })}
          onClose={() => setConfirming(false)}
        >
          <p>
            Each failed cell is queued again from its failing step; its earlier attempts are kept. Cells that are
            running or graded are left alone.
          </p>
          {retry.isError && <p className="text-red-700">{retry.error.message}</p>}
        </ConfirmDialog>
      )}
    </section>
  );
}
