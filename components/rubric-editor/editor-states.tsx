"use client";

import { Plus } from "lucide-react";
import Link from "next/link";
import { BackToPaperLink } from "@/components/layout/back-to-paper-link";
import { Button, buttonClass } from "@/components/ui/button";
import { Workspace } from "@/components/ui/workspace";
import type { RubricStore } from "./rubric-store";
import { INDENT, ROW_HEIGHT } from "./editor-tree";
import { newNode } from "./rubric-edits";

/** The editor while the rubric loads: its frame, with placeholder rows. */
export function EditorSkeleton({
  title,
  paperId,
  rootRef,
  height,
}: {
  title: string;
  paperId: string;
  rootRef: React.RefObject<HTMLDivElement | null>;
  height: number;
}) {
  return (
    <Workspace rootRef={rootRef} height={height} testId="editor-loading" busy>
      <header className="flex items-center gap-2">
        <BackToPaperLink paperId={paperId} />
        <div>
          <h1 className="text-base font-semibold leading-tight text-zinc-900">{title}</h1>
          <p className="text-xs text-zinc-500">Loading the rubric…</p>
        </div>
      </header>
      <div className="flex min-h-0 flex-1 gap-3">
        <div className="flex-1 space-y-2 overflow-hidden rounded-lg border border-zinc-200 bg-white p-3">
          <div className="h-8 w-96 animate-pulse rounded-md bg-zinc-100" />
          {Array.from({ length: 14 }, (_, i) => (
            <div
              key={i}
              className="flex items-center gap-3"
              style={{ paddingLeft: (i === 0 ? 0 : i % 4 === 1 ? 1 : 2) * INDENT }}
            >
              <div className="size-4 animate-pulse rounded bg-zinc-100" />
              <div className="h-4 animate-pulse rounded bg-zinc-100" style={{ width: `${40 + ((i * 37) % 45)}%` }} />
              <div className="ml-auto h-4 w-16 animate-pulse rounded bg-zinc-100" />
            </div>
          ))}
        </div>
        <div className="w-[24rem] animate-pulse 2xl:w-[28rem] rounded-lg border border-zinc-200 bg-white" />
      </div>
      <span className="sr-only">Loading ({ROW_HEIGHT})</span>
    </Workspace>
  );
}

export function EmptyRubric({
  paperId,
  title,
  canEdit,
  store,
  pending,
  onStart,
}: {
  paperId: string;
  title: string;
  canEdit: boolean;
  store: RubricStore;
  pending: boolean;
  onStart(): void;
}) {
  function start() {
    onStart();
    store.submit({ kind: "create", nodes: [newNode(null, "a0")] }, { label: "Start a rubric" });
  }
  return (
    <div className="mx-auto mt-8 max-w-xl space-y-6" data-testid="editor-empty">
      <div className="flex items-center gap-2">
        <BackToPaperLink paperId={paperId} />
        <h1 className="text-lg font-semibold text-zinc-900">{title}</h1>
      </div>
      <div className="rounded-xl border border-dashed border-zinc-300 bg-white px-8 py-10 text-center">
        <h2 className="text-base font-semibold text-zinc-900">This paper has no rubric yet</h2>
        {canEdit ? (
          <>
            <p className="mt-2 text-sm text-zinc-600">
              Build one here, node by node, or{" "}
              <Link href={`/papers/${paperId}`} className="font-medium text-indigo-700 underline">
                upload a rubric.json
              </Link>{" "}
              on the paper page.
            </p>
            <Button className="mt-5" onClick={start} disabled={pending} data-testid="start-from-scratch">
              <Plus size={15} aria-hidden /> {pending ? "Creating…" : "Start from scratch"}
            </Button>
          </>
        ) : (
          <p className="mt-2 text-sm text-zinc-600">The paper&apos;s authors have not written one yet.</p>
        )}
      </div>
    </div>
  );
}

/** The rubric could not be loaded (or read): why, and a way to try again. */
export function EditorLoadError({
  paperId,
  message,
  onRetry,
  rootRef,
}: {
  paperId: string;
  message: string | null;
  onRetry(): void;
  rootRef: React.RefObject<HTMLDivElement | null>;
}) {
  return (
    <div
      ref={rootRef}
      className="mx-auto mt-10 max-w-lg rounded-lg border border-red-200 bg-red-50 p-6"
      role="alert"
      data-testid="editor-error"
    >
      <h1 className="text-lg font-semibold text-red-900">The rubric could not be loaded</h1>
      <p className="mt-2 text-sm text-red-800">{message}</p>
      <div className="mt-4 flex gap-2">
        <Button onClick={onRetry}>Try again</Button>
        <Link href={`/papers/${paperId}`} className={buttonClass("secondary")}>
          Back to the paper
        </Link>
      </div>
    </div>
  );
}
