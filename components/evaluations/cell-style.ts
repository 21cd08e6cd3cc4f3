import {
  Ban,
  CheckCircle2,
  Circle,
  CircleDashed,
  Eye,
  Gavel,
  Loader2,
  TriangleAlert,
  Upload,
  XCircle,
  type LucideIcon,
} from "lucide-react";
import type { MatrixStage } from "@/lib/evaluations/matrix";

export interface StageStyle {
  label: string;
  /** What the legend says the stage means. */
  meaning: string;
  className: string;
  Icon: LucideIcon;
  spin?: boolean;
}

/**
 * How each pipeline stage looks in the matrix and its legend: a colour, and always an icon and a
 * word beside it, so no stage is told by colour alone. In pipeline order.
 */
export const STAGE_STYLE: Record<MatrixStage, StageStyle> = {
  empty: {
    label: "empty",
    meaning: "no submission yet",
    className: "bg-white text-zinc-400 ring-zinc-200",
    Icon: Circle,
  },
  uploaded: {
    label: "uploaded",
    meaning: "submitted, not started",
    className: "bg-zinc-100 text-zinc-700 ring-zinc-200",
    Icon: Upload,
  },
  reproducing: {
    label: "reproducing",
    meaning: "reproduce.sh queued or running",
    className: "bg-sky-50 text-sky-800 ring-sky-200",
    Icon: Loader2,
    spin: true,
  },
  judging: {
    label: "judging",
    meaning: "the judge is grading it",
    className: "bg-indigo-50 text-indigo-800 ring-indigo-200",
    Icon: Gavel,
  },
  graded: {
    label: "graded",
    meaning: "graded, review sampling next",
    className: "bg-teal-50 text-teal-800 ring-teal-200",
    Icon: CircleDashed,
  },
  in_review: {
    label: "in review",
    meaning: "leaves sampled for human review",
    className: "bg-violet-50 text-violet-800 ring-violet-200",
    Icon: Eye,
  },
  counted: {
    label: "counted",
    meaning: "enters its run's mean",
    className: "bg-emerald-50 text-emerald-800 ring-emerald-200",
    Icon: CheckCircle2,
  },
  failed: {
    label: "failed",
    meaning: "failed; the policy retries it",
    className: "bg-red-50 text-red-800 ring-red-200",
    Icon: XCircle,
  },
  excluded: {
    label: "excluded",
    meaning: "left out of its run's mean",
    className: "bg-amber-50 text-amber-900 ring-amber-300",
    Icon: Ban,
  },
};

/** A counted cell that counts otherwise than graded (a failure counted as 0) or a flagged run is marked too. */
export const WARNING_ICON = TriangleAlert;
