import type { ReactNode, RefObject } from "react";

/** A workspace spans the window, out of the layout's centred column. */
const fullBleed = { marginInline: "calc(50% - 50vw)" } as const;

/**
 * A full-window work screen (the rubric editor, the review page, and their loading states): as
 * wide as the window and `height` tall (see `useFillHeight`, which measures `rootRef`).
 */
export function Workspace({
  rootRef,
  height,
  testId,
  busy,
  children,
}: {
  rootRef: RefObject<HTMLDivElement | null>;
  height: number;
  testId: string;
  /** Loading: said to assistive technology. */
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      ref={rootRef}
      style={{ ...fullBleed, height }}
      className="-mt-3 flex flex-col gap-2.5 px-4"
      data-testid={testId}
      aria-busy={busy ? "true" : undefined}
    >
      {children}
    </div>
  );
}

/**
 * The box a virtualized tree fills (its height is measured through `boxRef`), with a note over it
 * when the filters keep nothing.
 */
export function TreeBox({
  boxRef,
  testId,
  filteredOut,
  children,
}: {
  boxRef: RefObject<HTMLDivElement | null>;
  testId: string;
  /** The note when the filters keep nothing; null otherwise. */
  filteredOut: string | null;
  children: ReactNode;
}) {
  return (
    <div ref={boxRef} className="relative min-h-0 flex-1" data-testid={testId}>
      {filteredOut !== null && (
        <p className="absolute inset-x-0 top-8 z-10 text-center text-sm text-zinc-500" data-testid="filter-empty">
          {filteredOut}
        </p>
      )}
      {children}
    </div>
  );
}
