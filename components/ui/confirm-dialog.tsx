"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";

/** Asks before a step that cannot be undone (cancel a running job, revoke a token). */
export function ConfirmDialog({
  title,
  children,
  confirmText,
  pending = false,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmText: string;
  pending?: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <Dialog title={title} onClose={onClose} className="max-w-md" testId="confirm-dialog">
      <div className="space-y-4 text-sm text-zinc-700">
        {children}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Keep it
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending} data-testid="confirm">
            {confirmText}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
