/** `24 h`, `1 h 30 min`, `45 min`, `1 min 30 s`, `30 s`: a job's timeout or elapsed time, to the second, in hours at most (PaperBench says "24 h"). */
export function formatDurationS(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const parts: string[] = [];
  if (s >= 3600) parts.push(`${Math.floor(s / 3600)} h`);
  if (s % 3600 >= 60) parts.push(`${Math.floor((s % 3600) / 60)} min`);
  if (s % 60 > 0 || parts.length === 0) parts.push(`${s % 60} s`);
  return parts.join(" ");
}
