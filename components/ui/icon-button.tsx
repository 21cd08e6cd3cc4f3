import type { ReactNode } from "react";

const SMALL =
  "rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-500";

/** A button that is only an icon: its label is its accessible name and its tooltip. */
export function IconButton({
  label,
  onClick,
  disabled,
  children,
  testId,
  bordered,
  danger,
  small,
}: {
  label: string;
  onClick(): void;
  disabled?: boolean;
  children: ReactNode;
  testId?: string;
  bordered?: boolean;
  danger?: boolean;
  /** A small, quiet one for lists (a version's compare and restore). */
  small?: boolean;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      data-testid={testId}
      className={
        small
          ? SMALL
          : `inline-flex size-8 items-center justify-center rounded-md text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:text-zinc-300 disabled:hover:bg-transparent ${
              bordered ? "border border-zinc-300 bg-white" : ""
            } ${danger ? "hover:bg-red-50 hover:text-red-700" : ""}`
      }
    >
      {children}
    </button>
  );
}
