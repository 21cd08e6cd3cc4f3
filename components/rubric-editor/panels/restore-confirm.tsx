"use client";

import { RotateCcw } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { Button, buttonClass } from "@/components/ui/button";

/**
 * "Restore this?" under a version or a revision: what the restore does, why it failed, and the
 * buttons. Shown only while asking; the confirm button takes the focus, Escape cancels.
 */
export function RestoreConfirm({
  label,
  className = "",
  error,
  restoring,
  confirmText,
  testId,
  onRestore,
  onCancel,
  children,
}: {
  /** The box's accessible name, e.g. "Restore revision 12?". */
  label: string;
  className?: string;
  error: string | null;
  restoring: boolean;
  confirmText: string;
  testId: string;
  onRestore(): void;
  onCancel(): void;
  children: ReactNode;
}) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirmRef.current?.focus();
  }, []);
  return (
    <div
      role="alertdialog"
      aria-label={label}
      className={`rounded-md border border-amber-200 bg-amber-50 p-2 text-xs text-amber-950 ${className}`}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <p>{children}</p>
      {error && (
        <p role="alert" className="mt-1.5 text-red-700">
          {error}
        </p>
      )}
      <div className="mt-2 flex gap-1.5">
        <button
          ref={confirmRef}
          type="button"
          className={buttonClass("danger", "px-2 py-1 text-xs")}
          disabled={restoring}
          onClick={onRestore}
          data-testid={testId}
        >
          <RotateCcw size={13} aria-hidden />
          {restoring ? "Restoring…" : confirmText}
        </button>
        <Button variant="ghost" className="px-2 py-1 text-xs" onClick={onCancel} disabled={restoring}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
