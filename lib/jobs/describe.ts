import { isFinalJobStatus, type JobStatus } from "./states";

/**
 * A runner's GPUs as people name them: `2× NVIDIA H100 80GB HBM3`, `1× A100 + 1× T4`, `none`.
 * Takes any `{ model }` (the runner protocol's GPUs fit) so the job vocabulary does not import the
 * runner protocol, which imports it.
 */
export function describeGpus(gpus: readonly { model: string }[]): string {
  if (gpus.length === 0) return "none";
  const counts = new Map<string, number>();
  for (const g of gpus) counts.set(g.model, (counts.get(g.model) ?? 0) + 1);
  return [...counts].map(([model, n]) => `${n}× ${model}`).join(" + ");
}

/**
 * Seconds a job has run: to `now` while it runs (ticking on the page), the measured duration once
 * it ended, null before it started.
 */
export function jobElapsedS(
  job: { status: JobStatus; startedAt: string | null; durationS?: number | null; finishedAt: string | null },
  now: number,
): number | null {
  if (!job.startedAt) return null;
  const started = new Date(job.startedAt).getTime();
  if (!isFinalJobStatus(job.status)) return job.status === "running" ? Math.max(0, (now - started) / 1000) : null;
  if (job.durationS != null) return job.durationS;
  return job.finishedAt ? Math.max(0, (new Date(job.finishedAt).getTime() - started) / 1000) : null;
}

/** `12 s ago`, `5 min ago`, `3 h ago`, `4 d ago`: when a runner was last heard from, a token last used. */
export function formatAgo(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}
