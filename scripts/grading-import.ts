/**
 * `npm run grading -- import <file> --paper <id> --agent <name> --run <n> [--human]
 *  [--variant code-dev] [--submission <archive | dir>]`: imports a PaperBench graded tree
 * (`expected_result.json`) or judge output (`grader_output.json`) as a grading of one run.
 */
import fs from "node:fs";
import path from "node:path";
import type { DbHandle } from "@/db/client";
import { AppError } from "@/lib/errors";
import { formatGradingIssue } from "@/lib/grading/graded-tree";
import type { GradingIssue } from "@/lib/grading/types";
import { importGrading } from "@/server/gradings/import-grading";
import { readSubmissionArchive } from "@/server/submissions/archive";
import { gradingImportFieldsSchema } from "@/lib/submissions/schemas";

export interface GradingImportFlags {
  paper?: string;
  agent?: string;
  run?: string;
  human?: boolean;
  variant?: string;
  submission?: string;
}

export async function importGradingCommand(
  positionals: string[],
  flags: GradingImportFlags,
  withDatabase: <T>(fn: (handle: DbHandle) => Promise<T>) => Promise<T>,
  usageError: (message: string) => Error,
): Promise<number> {
  const [file] = positionals;
  if (!file || positionals.length > 1) throw usageError("grading import takes one graded file");
  if (!flags.paper) throw usageError("grading import needs --paper <id>");
  const fields = gradingImportFieldsSchema.safeParse({
    agent: flags.agent,
    run: flags.run,
    variant: flags.variant,
    human: flags.human,
  });
  if (!fields.success) {
    const issue = fields.error.issues[0];
    throw usageError(`--${String(issue.path[0])}: ${issue.message}`);
  }
  // Read the file and the submission before opening the database, so a typo costs nothing.
  let fileText: string;
  try {
    fileText = fs.readFileSync(file, "utf8");
  } catch {
    throw usageError(`${file}: no such file`);
  }
  try {
    const archive = flags.submission ? await readSubmissionArchive({ path: flags.submission }) : null;
    const result = await withDatabase((handle) =>
      importGrading(handle, {
        paperId: flags.paper!,
        agentName: fields.data.agent,
        runIndex: fields.data.run,
        variant: fields.data.variant,
        human: fields.data.human,
        fileText,
        fileName: path.basename(file),
        archive,
        userId: null,
      }),
    );
    const pinnedText =
      result.pinned === "live"
        ? `pinned ${result.reusedVersion ? "an existing" : "a new"} version of the live rubric`
        : `the graded tree differs from the live rubric: ${result.reusedVersion ? "pinned its earlier version" : "saved as a version of its own"}`;
    console.log(
      `${file}: ${fields.data.human ? "human" : "judge"} grading ${result.gradingId} of ${fields.data.agent} run ${fields.data.run}` +
        ` (${fields.data.variant}) on ${flags.paper} — ${result.stats.leaves} leaves, score ${result.score}; ${pinnedText}`,
    );
    if (!result.scoreMatchesFile)
      console.log(`  the file's root score was ${result.importedScore}; its leaves give ${result.score}`);
    for (const w of result.warnings.slice(0, 20)) console.log(`  warning ${formatGradingIssue(w)}`);
    if (result.warnings.length > 20) console.log(`  … and ${result.warnings.length - 20} more warnings`);
    if (archive) {
      const skipped = archive.files.filter((f) => f.content === null).length;
      console.log(
        `  submission ${archive.name}: ${archive.files.length} files (${skipped} not kept: binary or too large)` +
          `${archive.reproduceLog !== null ? ", reproduce.log" : ", no reproduce.log"}`,
      );
    }
    return 0;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    console.error(`${file}: ${err.message}`);
    for (const d of err.details.slice(0, 50) as GradingIssue[]) console.error(`  ${formatGradingIssue(d)}`);
    return 1;
  }
}
