/** The mark of demo data (a seeded paper, a "Demo …" agent): its content is synthetic. */
export function DemoBadge({ className = "" }: { className?: string }) {
  return (
    <span
      title="Demo data: synthetic, seeded so the studio has something to show"
      data-testid="demo-badge"
      className={`inline-flex shrink-0 items-center rounded border border-amber-300 bg-amber-50 px-1.5 py-px text-[11px] font-semibold uppercase tracking-wide text-amber-800 ${className}`}
    >
      demo
    </span>
  );
}
