/**
 * A thin horizontal bar filled to `value / total` (empty when `total` is 0): review progress, a
 * grader's progress, a category's share. `className` sizes and colours the track, `barClassName`
 * colours the fill; `minPercent` keeps a tiny non-zero part visible.
 */
export function ProgressBar({
  value,
  total,
  className,
  barClassName,
  minPercent = 0,
}: {
  value: number;
  total: number;
  className: string;
  barClassName: string;
  minPercent?: number;
}) {
  const percent = total > 0 ? Math.max(minPercent, (value / total) * 100) : 0;
  return (
    <span className={`block overflow-hidden rounded-full ${className}`} aria-hidden>
      <span className={`block h-full ${barClassName}`} style={{ width: `${percent}%` }} />
    </span>
  );
}
