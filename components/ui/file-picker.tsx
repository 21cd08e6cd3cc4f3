"use client";

import { FolderOpen, Upload } from "lucide-react";
import { buttonClass } from "./button";

/**
 * A file (or folder) picker that looks like the studio's buttons: the native input stays in the
 * page, visually hidden but focusable (Tab reaches it, Enter or Space opens the browser's picker,
 * the button shows its focus ring), and the chosen file's name shows beside it.
 */
export function FilePicker({
  label,
  buttonText,
  chosen,
  onFiles,
  accept,
  directory = false,
  disabled = false,
  testId,
}: {
  /** The input's accessible name. */
  label: string;
  buttonText: string;
  /** What is chosen now, as the user should read it; null: nothing yet. */
  chosen: string | null;
  onFiles(files: File[]): void;
  accept?: string;
  /** Pick a whole folder (non-standard, supported by every current browser). */
  directory?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  const Icon = directory ? FolderOpen : Upload;
  return (
    <div className="flex min-w-0 items-center gap-2">
      <label
        className={buttonClass(
          "secondary",
          `shrink-0 cursor-pointer has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-indigo-500 ${disabled ? "pointer-events-none opacity-60" : ""}`,
        )}
      >
        <Icon size={14} aria-hidden />
        {buttonText}
        <input
          type="file"
          className="sr-only"
          aria-label={label}
          accept={accept}
          disabled={disabled}
          data-testid={testId}
          {...(directory ? ({ webkitdirectory: "", directory: "" } as Record<string, string>) : {})}
          onChange={(e) => {
            if (e.target.files?.length) onFiles(Array.from(e.target.files));
            // The same file picked again is a new choice.
            e.target.value = "";
          }}
        />
      </label>
      <span
        className={`min-w-0 truncate text-sm ${chosen ? "text-zinc-800" : "text-zinc-500"}`}
        title={chosen ?? undefined}
        data-testid={testId ? `${testId}-name` : undefined}
      >
        {chosen ?? (directory ? "No folder chosen" : "No file chosen")}
      </span>
    </div>
  );
}
