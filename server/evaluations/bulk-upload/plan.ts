import "server-only";
import { AppError, type ErrorDetail } from "@/lib/errors";
import { realSubdirs } from "@/server/submissions/upload-tree";

/** The shapes a bulk upload may take (README, "Evaluations"). */
export type BulkLayout = "paperbench-runs" | "paper-run-folders" | "manifest";

/** One cell (paper × run) of the evaluation to fill, and where its submission is in the upload. */
export interface PlannedCell {
  paperId: string;
  run: number;
  /** Where in the upload, as the person reads it (`<group>/<run_id>/submissions/<ts>/submission.tar.gz`, `manifest.csv:3`). */
  where: string;
  source: { kind: "archive" | "directory"; path: string };
  /** PaperBench's `agent.log` beside the submission, which the upload scans for blacklisted sites. */
  agentLog?: string;
}

export interface BulkPlan {
  layout: BulkLayout;
  cells: PlannedCell[];
  /** What was found and deliberately not uploaded (an attempt without a submission), with the reason. */
  skipped: { where: string; reason: string }[];
}

/**
 * Every problem of an upload, gathered before anything is written so the person sees them all at
 * once: a 400 (a 409 when each is a run that already has an archive) whose details name each place.
 */
export class Problems {
  private readonly list: (ErrorDetail & { conflict: boolean })[] = [];

  add(where: string, message: string, conflict = false): void {
    this.list.push({ path: where, message, conflict });
  }

  get size(): number {
    return this.list.length;
  }

  throwIfAny(): void {
    if (this.list.length === 0) return;
    const shown = this.list.slice(0, 5).map((p) => `${p.path}: ${p.message}`);
    const more = this.list.length > 5 ? `; and ${this.list.length - 5} more` : "";
    const code = this.list.every((p) => p.conflict) ? "conflict" : "bad_request";
    throw new AppError(
      code,
      `Nothing was uploaded (${this.list.length} problem${this.list.length === 1 ? "" : "s"}): ${shown.join("; ")}${more}`,
      this.list.slice(0, 200).map(({ path, message }) => ({ path, message })),
    );
  }
}

/** Real sub-folders by name (a link to a folder is not one: `upload-tree.ts`), leaving out hidden ones and macOS's `__MACOSX` that zips carry. */
export function subdirs(dir: string): string[] {
  return realSubdirs(dir).filter((name) => !name.startsWith(".") && name !== "__MACOSX");
}
