/** Colours of scores on the review page: red at 0, amber in between, green at 1, grey when hidden. */

export function scoreHue(score: number): number {
  return Math.round(Math.max(0, Math.min(1, score)) * 120);
}

/** Inline style of a score chip: a tinted background and a darker text of the score's hue. */
export function scoreChipStyle(score: number | null): React.CSSProperties {
  if (score === null) return { background: "var(--color-zinc-100)", color: "var(--color-zinc-500)" };
  const h = scoreHue(score);
  return {
    background: `hsl(${h} 75% 92%)`,
    color: `hsl(${h} 70% 26%)`,
    boxShadow: `inset 0 0 0 1px hsl(${h} 60% 80%)`,
  };
}

/** A score for a chip: `1`, `0`, `0.5` for leaves; percentages for aggregates. */
export function chipText(score: number | null, leaf: boolean): string {
  if (score === null) return "—";
  if (leaf) return Number.isInteger(score) ? String(score) : String(Number(score.toPrecision(3)));
  return `${(score * 100).toFixed(score === 0 || score === 1 ? 0 : 1)}%`;
}

/** `12m 05s`, `1h 02m`, `45s`: time spent reviewing. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}
