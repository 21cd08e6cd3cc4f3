import "server-only";
import path from "node:path";
import { RUN_ID_PATTERN } from "./find-layout";
import { firstLinkAmong, isRealDirectory, isRealFile, LINK_NOT_FOLLOWED } from "@/server/submissions/upload-tree";
import { subdirs, type BulkPlan, type PlannedCell, type Problems } from "./plan";

/**
 * PaperBench's run output without grades: each run group (sorted by name) is one run of the agent,
 * run 1 first, as the ingest numbers them; in it each `<paper>_<uuid>/` attempt folder gives the
 * paper (its name less the uuid) and the submission: the latest `submissions/<timestamp>/submission.tar.gz`
 * (timestamps sort as text), else a `submission.tar.gz` or a `submission/` folder in the attempt.
 * An attempt without any is listed as skipped (PaperBench counts it 0), never guessed at; the
 * attempt's `agent.log` goes with its submission (the upload scans it for blacklisted sites).
 */
export function readPaperBenchRuns(root: string, problems: Problems): BulkPlan {
  const children = subdirs(root);
  const groups = children.some((child) => RUN_ID_PATTERN.test(child))
    ? [{ name: path.basename(root), dir: root, label: "" }]
    : children
        .filter((group) => subdirs(path.join(root, group)).some((run) => RUN_ID_PATTERN.test(run)))
        .map((name) => ({ name, dir: path.join(root, name), label: `${name}/` }));
  const cells: PlannedCell[] = [];
  const skipped: BulkPlan["skipped"] = [];
  groups.forEach((group, i) => {
    const seen = new Map<string, string>();
    for (const attempt of subdirs(group.dir)) {
      const where = `${group.label}${attempt}`;
      const match = RUN_ID_PATTERN.exec(attempt);
      if (!match) {
        skipped.push({ where, reason: "not an attempt folder (<paper>_<uuid>)" });
        continue;
      }
      const paperId = match[1];
      const twin = seen.get(paperId);
      if (twin) {
        problems.add(
          where,
          `a second attempt at ${paperId} in the run group ${group.name} (also ${twin}): a run group holds one run per paper`,
        );
        continue;
      }
      seen.set(paperId, attempt);
      const linked = linkIn(path.join(group.dir, attempt));
      if (linked) {
        problems.add(`${where}/${linked}`, LINK_NOT_FOLLOWED);
        continue;
      }
      const source = submissionOf(path.join(group.dir, attempt));
      if (!source) {
        skipped.push({
          where,
          reason: "no submission (submissions/<timestamp>/submission.tar.gz, submission.tar.gz or submission/)",
        });
        continue;
      }
      const agentLog = path.join(group.dir, attempt, "agent.log");
      cells.push({
        paperId,
        run: i + 1,
        where: `${where}/${source.rel}`,
        source: { kind: source.kind, path: path.join(/*turbopackIgnore: true*/ group.dir, attempt, source.rel) },
        agentLog: isRealFile(agentLog) ? agentLog : undefined,
      });
    }
  });
  return { layout: "paperbench-runs", cells, skipped };
}

function submissionOf(attemptDir: string): { rel: string; kind: "archive" | "directory" } | null {
  const submissions = path.join(attemptDir, "submissions");
  if (isRealDirectory(submissions)) {
    const stamps = subdirs(submissions);
    for (const stamp of stamps.reverse()) {
      if (isRealFile(path.join(submissions, stamp, "submission.tar.gz")))
        return { rel: `submissions/${stamp}/submission.tar.gz`, kind: "archive" };
    }
  }
  if (isRealFile(path.join(attemptDir, "submission.tar.gz"))) return { rel: "submission.tar.gz", kind: "archive" };
  if (isRealDirectory(path.join(attemptDir, "submission"))) return { rel: "submission", kind: "directory" };
  return null;
}

/** The first of an attempt's files or folders the reader would take that is a link instead (never followed), or null. */
function linkIn(attemptDir: string): string | null {
  const names = ["agent.log", "submission.tar.gz", "submission", "submissions"];
  const submissions = path.join(attemptDir, "submissions");
  if (isRealDirectory(submissions))
    for (const stamp of subdirs(submissions)) names.push(`submissions/${stamp}/submission.tar.gz`);
  return firstLinkAmong(attemptDir, names);
}
