"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Archive } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { ApiClientError, fetchJson } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FilePicker } from "@/components/ui/file-picker";

interface AttachResult {
  archiveName: string;
  replaced: boolean;
  archive: { files: number; kept: number; hasReproduceLog: boolean };
}

/**
 * Staff: attach the submitted repository (.tar.gz, .tar, .zip) to the run this grading grades, so
 * its code can be read beside the verdicts; an archive stored before is replaced.
 */
export function AttachArchiveButton({ gradingId }: { gradingId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [archive, setArchive] = useState<File | null>(null);
  const attach = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set("submission", file);
      return fetchJson<AttachResult>(`/api/gradings/${gradingId}/submission`, { method: "POST", body: form });
    },
    onSuccess: (result) => {
      toast.success(
        `${result.replaced ? "Replaced the archive with" : "Attached"} ${result.archiveName}: ${result.archive.files.toLocaleString("en")} files` +
          (result.archive.hasReproduceLog ? " and reproduce.log" : ""),
      );
      close();
      return refetchAfterChange(queryClient, ["review-files", gradingId]);
    },
  });
  function close() {
    setOpen(false);
    setArchive(null);
    attach.reset();
  }
  const error = attach.error instanceof ApiClientError ? attach.error : null;
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => setOpen(true)}
        data-testid="attach-archive-open"
        title="Attach the submitted repository"
      >
        <Archive size={15} aria-hidden /> Archive
      </Button>
      {open && (
        <Dialog
          onClose={close}
          testId="attach-archive-dialog"
          title="Attach the submitted repository"
          description="A .tar.gz, .tar or .zip of the agent's repository. It replaces any archive stored for this run."
          className="max-w-lg"
        >
          <form
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              if (archive) attach.mutate(archive);
            }}
          >
            <FilePicker
              label="Submission archive"
              buttonText="Choose archive…"
              accept=".tgz,.gz,.tar,.zip"
              chosen={archive?.name ?? null}
              onFiles={(f) => setArchive(f[0])}
              testId="attach-archive-file"
            />
            {error && (
              <p
                role="alert"
                className="rounded border border-red-200 bg-red-50 p-2 text-xs text-red-800"
                data-testid="attach-archive-error"
              >
                {error.message}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={!archive || attach.isPending} data-testid="attach-archive-submit">
                {attach.isPending ? "Attaching…" : "Attach"}
              </Button>
            </div>
          </form>
        </Dialog>
      )}
    </>
  );
}
