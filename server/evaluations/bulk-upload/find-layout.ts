import "server-only";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { MANIFEST_FILE } from "@/lib/evaluations/bulk-manifest";
import { entryKindAt, isRealDirectory, isRealFile, LINK_NOT_FOLLOWED } from "@/server/submissions/upload-tree";
import { subdirs, type BulkLayout } from "./plan";

/** PaperBench names each attempt's folder `<paper_id>_<uuid4>`. */
export const RUN_ID_PATTERN = /^(.+)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const GRADE_FILE = "grade.json";

/**
 * Which shape an upload has, and the folder it starts at (an archive often wraps everything in
 * one folder, so single folders are looked through, a few levels deep):
 * - `manifest`: a `manifest.csv` at the root;
 * - `paperbench-runs`: run groups holding `<paper>_<uuid>/` attempt folders, or one run group's
 *   attempt folders at the root (without grades: a
 *   folder with `grade.json` is PaperBench's graded results, which the ingest takes instead);
 * - `paper-run-folders`: `<paper>/<run>/submission/`.
 */
export function findLayout(dir: string): { root: string; layout: BulkLayout } {
  let at = dir;
  for (let depth = 0; depth < 4; depth++) {
    if (entryKindAt(path.join(at, MANIFEST_FILE)) === "link") {
      throw new AppError("bad_request", `${MANIFEST_FILE} ${LINK_NOT_FOLLOWED}`, [
        { path: MANIFEST_FILE, message: LINK_NOT_FOLLOWED },
      ]);
    }
    if (isRealFile(path.join(at, MANIFEST_FILE))) return { root: at, layout: "manifest" };
    const children = subdirs(at);
    const grandchildren = (child: string) => subdirs(path.join(at, child));
    const graded = children.some(
      (child) =>
        isRealFile(path.join(at, child, GRADE_FILE)) ||
        grandchildren(child).some((run) => isRealFile(path.join(at, child, run, GRADE_FILE))),
    );
    if (graded) {
      throw new AppError(
        "bad_request",
        `The upload holds PaperBench's graded results (${GRADE_FILE}): ingest them as a new evaluation instead (Ingest PaperBench results, POST /api/evaluations/ingest, npm run evaluation -- ingest)`,
        [{ path: "body", message: `holds ${GRADE_FILE}` }],
      );
    }
    // Run groups, or one run group's attempts themselves.
    if (
      children.some(
        (child) => RUN_ID_PATTERN.test(child) || grandchildren(child).some((run) => RUN_ID_PATTERN.test(run)),
      )
    )
      return { root: at, layout: "paperbench-runs" };
    if (
      children.some((paper) =>
        grandchildren(paper).some((run) => /^[0-9]+$/.test(run) && isRealDirectory(path.join(at, paper, run))),
      )
    ) {
      return { root: at, layout: "paper-run-folders" };
    }
    if (children.length !== 1) break;
    at = path.join(at, children[0]);
  }
  throw new AppError(
    "bad_request",
    "The upload's shape is not one the bulk upload reads: a PaperBench run group (<run_group>/<paper>_<uuid>/submissions/<timestamp>/submission.tar.gz), <paper>/<run>/submission/ folders, or a manifest.csv (paper_id,run,path) at the root",
    [{ path: "body", message: "no known layout" }],
  );
}
