import { Ban, CheckCircle2, CircleDashed, Clock, Loader2, XCircle } from "lucide-react";
import type { JobStatus } from "@/lib/jobs/states";

const STYLE: Record<JobStatus, { label: string; className: string; Icon: typeof Clock }> = {
  queued: { label: "queued", className: "bg-zinc-100 text-zinc-700 ring-zinc-200", Icon: CircleDashed },
  running: { label: "running", className: "bg-sky-50 text-sky-800 ring-sky-200", Icon: Loader2 },
  succeeded: { label: "succeeded", className: "bg-emerald-50 text-emerald-800 ring-emerald-200", Icon: CheckCircle2 },
  failed: { label: "failed", className: "bg-red-50 text-red-800 ring-red-200", Icon: XCircle },
  timed_out: { label: "timed out", className: "bg-amber-50 text-amber-900 ring-amber-200", Icon: Clock },
  cancelled: { label: "cancelled", className: "bg-zinc-100 text-zinc-600 ring-zinc-300", Icon: Ban },
};

/** A job's state as a small coloured badge; a running job asked to stop says "cancelling". */
export function JobStatusBadge({
  status,
  cancelRequested = false,
  testId,
}: {
  status: JobStatus;
  cancelRequested?: boolean;
  testId?: string;
}) {
  const { label, className, Icon } = STYLE[status];
  const cancelling = cancelRequested && status === "running";
  return (
    <span
      data-testid={testId}
      data-status={status}
      className={`inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${className}`}
    >
      <Icon size={12} aria-hidden className={status === "running" ? "animate-spin" : undefined} />
      {cancelling ? "cancelling" : label}
    </span>
  );
}
