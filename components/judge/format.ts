/** How the judge's figures read on its cards and dialog. */
export function formatTokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(2)} M` : n >= 1_000 ? `${(n / 1_000).toFixed(1)} k` : String(n);
}

export function formatUsd(n: number): string {
  return n === 0 ? "$0" : n < 0.01 ? "< $0.01" : `$${n.toFixed(2)}`;
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
