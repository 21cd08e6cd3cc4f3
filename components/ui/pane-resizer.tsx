import type { usePaneWidth } from "@/components/hooks/use-pane-width";

/** The drag handle between two panes (a focusable separator: the arrow keys resize too). */
export function PaneResizer({
  pane,
  label,
  title,
  testId,
  className = "",
}: {
  pane: ReturnType<typeof usePaneWidth>;
  label: string;
  title: string;
  testId: string;
  className?: string;
}) {
  return (
    <div
      {...pane.separatorProps}
      aria-label={label}
      title={title}
      data-testid={testId}
      className={`group flex cursor-col-resize items-center justify-center outline-none ${className}`}
    >
      <span className="h-10 w-1 rounded-full bg-zinc-200 transition-colors group-hover:bg-indigo-400 group-focus-visible:bg-indigo-500" />
    </div>
  );
}
