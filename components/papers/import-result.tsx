import type { RubricWarning } from "@/lib/rubric/types";
import type { ErrorDetail } from "@/lib/errors";

/** Problems listed by JSON path: the refusal of an upload, or the warnings of an accepted one. */
export function IssueList({
  items,
  tone,
  testId,
}: {
  items: readonly (ErrorDetail | RubricWarning)[];
  tone: "error" | "warning";
  testId: string;
}) {
  if (items.length === 0) return null;
  const color =
    tone === "error" ? "border-red-200 bg-red-50 text-red-900" : "border-amber-200 bg-amber-50 text-amber-900";
  return (
    <ul
      data-testid={testId}
      className={`max-h-56 space-y-0.5 overflow-auto rounded-md border p-3 font-mono text-xs ${color}`}
    >
      {items.slice(0, 200).map((item, i) => (
        <li key={i}>
          <span className="font-semibold">{item.path}</span>: {item.message}
        </li>
      ))}
      {items.length > 200 && <li>… and {items.length - 200} more</li>}
    </ul>
  );
}
