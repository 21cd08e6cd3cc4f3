import "server-only";
import path from "node:path";
import { firstLinkAmong, isRealDirectory, isRealFile, LINK_NOT_FOLLOWED } from "@/server/submissions/upload-tree";
import { subdirs, type BulkPlan, type PlannedCell, type Problems } from "./plan";

/**
 * `<paper>/<run>/submission/` (or `<paper>/<run>/submission.tar.gz`): each run folder, a whole
 * number, is that run of the paper; its submission folder is packed as the upload's archive, and
 * an `agent.log` beside it goes with it.
 */
export function readPaperRunFolders(root: string, problems: Problems): BulkPlan {
  const cells: PlannedCell[] = [];
  for (const paperId of subdirs(root)) {
    for (const runName of subdirs(path.join(root, paperId))) {
      const where = `${paperId}/${runName}`;
      if (!/^[0-9]+$/.test(runName) || Number(runName) < 1) {
        problems.add(where, "must be a run number (1, 2, …) holding submission/");
        continue;
      }
      const dir = path.join(root, paperId, runName);
      const agentLog = isRealFile(path.join(dir, "agent.log")) ? path.join(dir, "agent.log") : undefined;
      const linked = firstLinkAmong(dir, ["submission", "submission.tar.gz", "agent.log"]);
      if (linked) {
        problems.add(`${where}/${linked}`, LINK_NOT_FOLLOWED);
        continue;
      }
      if (isRealDirectory(path.join(dir, "submission"))) {
        cells.push({
          paperId,
          run: Number(runName),
          where: `${where}/submission/`,
          source: { kind: "directory", path: path.join(dir, "submission") },
          agentLog,
        });
      } else if (isRealFile(path.join(dir, "submission.tar.gz"))) {
        cells.push({
          paperId,
          run: Number(runName),
          where: `${where}/submission.tar.gz`,
          source: { kind: "archive", path: path.join(dir, "submission.tar.gz") },
          agentLog,
        });
      } else {
        problems.add(where, "has no submission/ folder (or submission.tar.gz)");
      }
    }
  }
  return { layout: "paper-run-folders", cells, skipped: [] };
}
