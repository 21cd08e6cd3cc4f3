import { TASK_CATEGORIES } from "@/lib/rubric/types";

/** Colours per PaperBench task_category (chip background/text, and a solid swatch for bars). */
export const CATEGORY_STYLE: Record<string, { chip: string; bar: string; short: string }> = {
  "Code Development": { chip: "bg-sky-50 text-sky-800 ring-sky-200", bar: "bg-sky-500", short: "Code Dev" },
  "Code Execution": {
    chip: "bg-emerald-50 text-emerald-800 ring-emerald-200",
    bar: "bg-emerald-500",
    short: "Execution",
  },
  "Result Analysis": { chip: "bg-violet-50 text-violet-800 ring-violet-200", bar: "bg-violet-500", short: "Results" },
};

const UNKNOWN = { chip: "bg-red-50 text-red-800 ring-red-200", bar: "bg-red-400", short: "" };

export function categoryStyle(category: string) {
  return CATEGORY_STYLE[category] ?? UNKNOWN;
}

export function CategoryChip({ category, className = "" }: { category: string | null; className?: string }) {
  if (category === null) return null;
  const style = categoryStyle(category);
  const known = (TASK_CATEGORIES as readonly string[]).includes(category);
  return (
    <span
      data-testid="row-category"
      title={known ? category : `Unknown category: ${category}`}
      className={`inline-flex max-w-full items-center truncate rounded px-1.5 py-px text-[11px] font-medium ring-1 ring-inset ${style.chip} ${className}`}
    >
      {known ? style.short : category}
    </span>
  );
}
