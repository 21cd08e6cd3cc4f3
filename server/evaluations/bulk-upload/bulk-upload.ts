import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Store } from "@/db/client";
import { getEvaluationById } from "@/db/queries/evaluations";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/uuid";
import { uploadSubmission } from "@/server/submissions/upload-submission";
import { evaluationUpload } from "../evaluation-upload";
import { submissionLimits } from "@/server/submissions/submission-limits";
import { uploadReadError } from "@/server/submissions/upload-tree";
import { checkPlan } from "./check-plan";
import { findLayout } from "./find-layout";
import { Problems, type BulkLayout, type BulkPlan } from "./plan";
import { readManifest } from "./read-manifest";
import { readPaperBenchRuns } from "./read-paperbench-runs";
import { readPaperRunFolders } from "./read-paper-run-folders";

export interface BulkUploadInput {
  evaluationId: string;
  /** A folder in one of the layouts (`find-layout.ts`), or a manifest CSV file. */
  source: string;
  userId: string | null;
  /** Manifest paths may be absolute (the CLI on the studio's machine, never an upload). */
  allowAbsolutePaths?: boolean;
  /** Runs that already have an archive get the new one (their cells start again); else such a run is refused. */
  replace?: boolean;
}

export interface BulkUploadResult {
  evaluationId: string;
  layout: BulkLayout;
  /** What was created, per cell, in paper and run order. */
  cells: { paperId: string; run: number; submissionId: string; source: string; files: number; sha256: string }[];
  skipped: BulkPlan["skipped"];
}

/** The evaluation a bulk upload fills, or a 404: checked before a body is received. */
export async function evaluationToFill(store: Store, evaluationId: string) {
  const evaluation = isUuid(evaluationId) ? await getEvaluationById(store.db, evaluationId) : null;
  if (!evaluation) throw new AppError("not_found", `No evaluation with id "${evaluationId}"`);
  return evaluation;
}

/**
 * Which cells the upload holds. `input.source` is the operator's own path (the CLI) or a folder the
 * request's archive was unpacked into: it is taken as it is, and nothing under it is followed
 * through a link (`upload-tree.ts`).
 */
function readPlan(input: BulkUploadInput, problems: Problems): BulkPlan {
  const source = fs.realpathSync(input.source);
  if (fs.statSync(source).isFile())
    return readManifest(source, { allowAbsolute: input.allowAbsolutePaths === true }, problems);
  const { root, layout } = findLayout(source);
  if (layout === "manifest")
    return readManifest(
      path.join(root, "manifest.csv"),
      { allowAbsolute: input.allowAbsolutePaths === true },
      problems,
    );
  return layout === "paperbench-runs" ? readPaperBenchRuns(root, problems) : readPaperRunFolders(root, problems);
}

/**
 * Fills an evaluation from a folder (PaperBench's run groups without grades, `<paper>/<run>/submission/`,
 * or a `manifest.csv` at its root) or a manifest file. Every cell is read and checked first
 * (`check-plan.ts`) and all problems answered at once, so a bad upload writes nothing; then each
 * cell goes through the harness's own upload into the evaluation, one submission at a time.
 */
export async function bulkUploadIntoEvaluation(store: Store, input: BulkUploadInput): Promise<BulkUploadResult> {
  const evaluation = await evaluationToFill(store, input.evaluationId);
  const problems = new Problems();
  let plan: BulkPlan;
  try {
    plan = readPlan(input, problems);
  } catch (err) {
    throw uploadReadError(err, "body");
  }
  if (problems.size === 0 && plan.cells.length === 0) {
    problems.add("body", `no submission found in the ${plan.layout} layout`);
    problems.throwIfAny();
  }

  const workDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "rs-bulk-"));
  try {
    const checked = await checkPlan(store, evaluation, plan.cells, workDir, problems, input.replace === true);
    problems.throwIfAny();
    checked.sort((a, b) => (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : a.run - b.run));
    const limits = submissionLimits();
    const cells: BulkUploadResult["cells"] = [];
    for (const cell of checked) {
      const uploaded = await uploadSubmission(
        store,
        {
          agent: evaluation.agentName,
          run: cell.run,
          variant: evaluation.variant,
          reproduce: false,
          replace: input.replace === true,
          paperId: cell.paperId,
          userId: input.userId,
          archive: { path: cell.archive.path, name: cell.archive.name, disposable: cell.archive.packed },
          agentLog: cell.agentLog ? { path: cell.agentLog } : undefined,
          limits,
        },
        evaluationUpload(evaluation.id),
      );
      cells.push({
        paperId: cell.paperId,
        run: cell.run,
        submissionId: uploaded.submissionId,
        source: cell.where,
        files: uploaded.files,
        sha256: uploaded.sha256,
      });
    }
    return { evaluationId: evaluation.id, layout: plan.layout, cells, skipped: plan.skipped };
  } finally {
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
}
