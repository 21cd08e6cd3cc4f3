import type { Gpu } from "@/lib/runner/protocol";
import { isFinalJobStatus, type JobStatus } from "./states";

/** A runner's GPUs as people name them: `2× NVIDIA H100 80GB HBM3`, `1× A100 + 1× T4`, `none`. */
export function describeGpus(gpus: readonly Gpu[]): string {
  if (gpus.length === 0) return "none";
  const counts = new Map<string, number>();
  for (const g of gpus) counts.set(g.model, (counts.get(g.model) ?? 0) + 1);
  return [...counts].map(([model, n]) => `${n}× ${model}`).join(" + ");
}

/**
 * Seconds a job has run: to `now` while it runs (ticking on the page), the measured duration once
 * it ended, null before it started.
 */
export function jobElapsedS(job: { status: JobStatus; startedAt: string | null; durationS?: number | null; finishedAt: string | null }, now: number): number | null {
  if (!job.startedAt) return null;
  const started = new Date(job.startedAt).getTime();
  if (!isFinalJobStatus(job.status)) return job.status === "running" ? Math.max(0, (now - started) / 1000) : null;
  if (job.durationS != null) return job.durationS;
  return job.finishedAt ? Math.max(0, (new Date(job.finishedAt).getTime() - started) / 1000) : null;
}
