"use client";

import { FlaskConical, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiClientError, fetchJson, jsonInit } from "@/components/api/client";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { DeleteDemoRequest } from "@/lib/demo/schemas";

/**
 * The line every page shows while the studio holds demo data (the root layout renders it): the
 * demo paper, the "Demo …" agents and their scores are synthetic. Staff can delete the demo here.
 */
export function DemoNotice({ canDelete, signedInAsDemo }: { canDelete: boolean; signedInAsDemo: boolean }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div
      role="note"
      aria-label="Demo data"
      data-testid="demo-notice"
      className="border-b border-amber-200 bg-amber-50 text-amber-900"
    >
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-1.5 text-sm">
        <FlaskConical size={15} className="shrink-0" aria-hidden />
        <p className="min-w-0 flex-1">
          <span className="font-semibold">Demo data.</span> The demo paper and the agents named &ldquo;Demo …&rdquo; are
          synthetic: their scores are not real results.
        </p>
        {canDelete && (
          <button
            type="button"
            onClick={() => setConfirming(true)}
            className="inline-flex shrink-0 items-center gap-1 rounded-md border border-amber-300 bg-white px-2 py-0.5 text-xs font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
          >
            <Trash2 size={13} aria-hidden />
            Delete demo…
          </button>
        )}
      </div>
      {confirming && <DeleteDemoDialog signedInAsDemo={signedInAsDemo} onClose={() => setConfirming(false)} />}
    </div>
  );
}

function DeleteDemoDialog({ signedInAsDemo, onClose }: { signedInAsDemo: boolean; onClose(): void }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function deleteDemo() {
    setBusy(true);
    setError(null);
    try {
      const body: DeleteDemoRequest = { confirm: true };
      await fetchJson("/api/demo", jsonInit("DELETE", body));
      onClose();
      // The page may have shown demo data (a demo paper is gone): start again from the papers list.
      router.push("/");
      router.refresh();
    } catch (err) {
      setError(err instanceof ApiClientError ? err.message : "The demo could not be deleted; try again.");
      setBusy(false);
    }
  }

  return (
    <Dialog
      onClose={onClose}
      title="Delete the demo?"
      testId="delete-demo-dialog"
      className="max-w-lg text-zinc-900"
      icon={<Trash2 size={18} className="mt-0.5 text-red-600" aria-hidden />}
      description="This cannot be undone."
    >
      <div className="space-y-3 text-sm text-zinc-700">
        <p>Everything the demo seeded is deleted in one step:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>the demo users (staff, author and grader @demo.rubric.studio) and their sessions;</li>
          <li>the demo paper with its rubric, history and comments, and every run graded on it;</li>
          <li>the agents named &ldquo;Demo …&rdquo; with all their runs, gradings and reviews.</li>
        </ul>
        <p>Real papers, agents and gradings stay as they are.</p>
        {signedInAsDemo && (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-amber-900" data-testid="delete-demo-self">
            You are signed in with a demo account: it is deleted too and you will be signed out. Add your own staff
            account first (<code className="font-mono text-xs">npm run user -- add you@example.org --staff</code>) if
            you want to keep using the studio.
          </p>
        )}
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
            {error}
          </p>
        )}
      </div>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <button
          type="button"
          onClick={deleteDemo}
          disabled={busy}
          className="inline-flex items-center justify-center rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-500 disabled:cursor-not-allowed disabled:bg-red-300"
        >
          {busy ? "Deleting…" : "Delete demo"}
        </button>
      </div>
    </Dialog>
  );
}
