"use client";

import { Check, Copy, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "./button";

/**
 * A secret the studio shows once (a new runner or API token): a copyable box and the warning that
 * it will not be shown again, kept until the person dismisses it.
 */
export function ShownOnce({
  label,
  secret,
  onDismiss,
  children,
}: {
  label: string;
  secret: string;
  onDismiss(): void;
  children?: React.ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error("The browser refused the clipboard: select the token and copy it");
    }
  };
  return (
    <div
      role="status"
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3"
      data-testid="shown-once"
    >
      <p className="flex items-center gap-1.5 text-sm font-medium text-amber-900">
        <TriangleAlert size={14} aria-hidden /> {label}: copy it now, it will not be shown again.
      </p>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 select-all break-all rounded border border-amber-200 bg-white px-2 py-1 font-mono text-xs text-zinc-900"
          data-testid="shown-once-secret"
        >
          {secret}
        </code>
        <Button variant="secondary" onClick={copy} aria-label="Copy to the clipboard">
          {copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      {children}
      <Button variant="ghost" onClick={onDismiss}>
        I have copied it
      </Button>
    </div>
  );
}
