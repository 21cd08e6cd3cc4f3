import "server-only";
import path from "node:path";
import type { Store } from "@/db/client";
import { getPaperById } from "@/db/queries/papers";
import type { Evaluation } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { checkSubmissionArchive } from "@/server/submissions/archive";
import { packDirectory } from "@/server/submissions/pack-directory";
import { submissionLimits } from "@/server/submissions/submission-limits";
import { precheckSubmissionUpload } from "@/server/submissions/upload-submission";
import { evaluationUpload } from "../evaluation-upload";
import type { PlannedCell, Problems } from "./plan";

/** A cell ready to upload: its archive (a folder packed into `workDir`, which the caller removes). */
export interface CheckedCell extends PlannedCell {
  archive: { path: string; name: string; packed: boolean };
}

/**
 * Everything that would refuse a cell, before anything is written: a cell named twice, a paper the
 * studio does not have, and the harness upload's own checks (the evaluation's split, a run within
 * its N, a run that already has an archive unless `replace`); then each folder is packed and every archive read
 * entry by entry with the upload's checks (unsafe paths, links out of the tree, bombs).
 */
export async function checkPlan(
  store: Store,
  evaluation: Evaluation & { agentName: string },
  cells: PlannedCell[],
  workDir: string,
  problems: Problems,
  replace = false,
): Promise<CheckedCell[]> {
  const byCell = new Map<string, string>();
  const fitting: PlannedCell[] = [];
  for (const cell of cells) {
    const key = `${cell.paperId}\u0000${cell.run}`;
    const twin = byCell.get(key);
    if (twin) {
      problems.add(cell.where, `run ${cell.run} of ${cell.paperId} is also given by ${twin}`);
      continue;
    }
    byCell.set(key, cell.where);
    if (!(await getPaperById(store.db, cell.paperId))) {
      problems.add(cell.where, `no paper with id "${cell.paperId}" in the studio`);
      continue;
    }
    try {
      await precheckSubmissionUpload(
        store,
        {
          agent: evaluation.agentName,
          run: cell.run,
          variant: evaluation.variant,
          reproduce: false,
          replace,
          paperId: cell.paperId,
        },
        evaluationUpload(evaluation.id),
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      problems.add(cell.where, err.message, err.code === "conflict");
      continue;
    }
    fitting.push(cell);
  }
  if (problems.size > 0) return [];

  const limits = submissionLimits();
  const checked: CheckedCell[] = [];
  for (const [i, cell] of fitting.entries()) {
    let archive: CheckedCell["archive"];
    if (cell.source.kind === "directory") {
      archive = { path: path.join(workDir, `cell-${i}.tar.gz`), name: "submission.tar.gz", packed: true };
      await packDirectory(cell.source.path, archive.path);
    } else {
      archive = { path: cell.source.path, name: path.basename(cell.source.path), packed: false };
    }
    try {
      await checkSubmissionArchive(archive.path, archive.name, limits, cell.where);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      problems.add(cell.where, err.message);
      continue;
    }
    checked.push({ ...cell, archive });
  }
  return checked;
}
