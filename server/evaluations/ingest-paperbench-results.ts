import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { Store } from "@/db/client";
import { ensureAgentByName, getAgentByName } from "@/db/queries/agents";
import { insertBlob } from "@/db/queries/blobs";
import { setSubmissionEvaluation } from "@/db/queries/evaluations";
import { getPaperById } from "@/db/queries/papers";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { ensureSubmission, getSubmissionByRun } from "@/db/queries/submissions";
import { AppError } from "@/lib/errors";
import type { EvaluationPolicies, EvaluationSetup, ImportedRunResult } from "@/lib/evaluations/schemas";
import { formatGradingIssue, parseGradedJson } from "@/lib/grading/graded-tree";
import type { Variant } from "@/lib/grading/variant";
import { GRADED_LIMITS } from "@/lib/grading/graded-tree";
import { readJsonText } from "@/lib/rubric/json-text";
import { getBlobStore } from "@/server/blobs/get-blob-store";
import { importGrading } from "@/server/gradings/import-grading";
import { checkSubmissionArchive } from "@/server/submissions/archive";
import { submissionLimits } from "@/server/submissions/submission-limits";
import { uploadSubmission } from "@/server/submissions/upload-submission";
import {
  entryKindAt,
  firstLinkAmong,
  isRealDirectory,
  isRealFile,
  LINK_NOT_FOLLOWED,
  readRealFile,
  realSubdirs as subdirs,
  uploadReadError,
} from "@/server/submissions/upload-tree";
import { createEvaluationInTransaction } from "./create-evaluation";
import { readEvaluationSummary, type EvaluationSummary } from "./read-evaluation";

/** One `runs/<run_group_id>/<run_id>/` of PaperBench's output, read and checked before anything is written. */
interface RunFolder {
  runGroupId: string;
  /** 1-based: the run group's place among the groups, by name. */
  run: number;
  runId: string;
  dir: string;
  paperId: string;
  variant: Variant;
  /** The judge output as JSON text (grade.json's, else `submission_executed_grader_output_0.json`). */
  judgeOutputText: string | null;
  submissionArchive: string | null;
  executedArchive: string | null;
  imported: ImportedRunResult;
}

export interface IngestPaperBenchInput {
  /** The `runs/` folder: one folder per run group, each with one folder per paper attempt. */
  runsDir: string;
  agent: string;
  userId: string | null;
  name?: string;
  policies?: EvaluationPolicies;
  setup?: EvaluationSetup;
}

/** What the CLI prints: root scores per paper in run-group order, per-run means, mean ± se. */
export interface IngestResult {
  evaluationId: string;
  agent: string;
  runs: number;
  papers: Record<string, (number | null)[]>;
  runScores: (number | null)[];
  mean: number | null;
  se: number | null;
}

const GRADE_FILE = "grade.json";

/**
 * Builds an evaluation from PaperBench's own results folder: each run group (sorted by name) is
 * one run of the agent; in it, each `<run_id>/grade.json` gives the paper, `code_only` (the
 * variant), the judge output and the reproduction's metadata, and the latest
 * `submissions/<timestamp>/` the submitted archive (through the upload's checks and the blob
 * store), the executed metadata and archive, and the grader output. Every file is read and checked
 * first, and runs the agent already has are refused, so a bad folder writes nothing; then the
 * evaluation, the submissions and the gradings (the grading import, one per judge output). No
 * link in the folder is followed (`upload-tree.ts`): a linked grade.json or submission is not there.
 */
export async function ingestPaperBenchResults(
  store: Store,
  input: IngestPaperBenchInput,
): Promise<{ result: IngestResult; summary: EvaluationSummary }> {
  let folders: RunFolder[];
  try {
    folders = readRunFolders(findRunsRoot(fs.realpathSync(input.runsDir)));
  } catch (err) {
    throw uploadReadError(err, "runs");
  }
  if (folders.length === 0) {
    throw new AppError("bad_request", `No run groups with <run_id>/${GRADE_FILE} in ${path.basename(input.runsDir)}`, [
      { path: "runs", message: "no grade.json found" },
    ]);
  }
  const variants = new Set(folders.map((f) => f.variant));
  if (variants.size > 1)
    throw new AppError("bad_request", "The runs mix code_only and full grades: ingest each variant on its own", [
      { path: "code_only", message: "mixed" },
    ]);
  const variant = folders[0].variant;
  const runs = Math.max(...folders.map((f) => f.run));
  const paperIds = [...new Set(folders.map((f) => f.paperId))].sort();
  await precheck(store, folders, input.agent, variant);

  const evaluation = await store.db.transaction((tx) =>
    createEvaluationInTransaction(
      tx,
      {
        name: input.name ?? `${input.agent} · ${path.basename(path.resolve(input.runsDir))}`,
        agent: input.agent,
        split: "custom",
        paperIds,
        runs,
        variant,
        policies: input.policies,
        setup: input.setup,
        resourcesProvided: folders.some((f) => f.imported.resourcesProvided === true),
      },
      input.userId,
    ),
  );
  const limits = submissionLimits();
  for (const folder of folders) {
    if (folder.submissionArchive) {
      await uploadSubmission(store, {
        agent: input.agent,
        run: folder.run,
        variant,
        reproduce: false,
        replace: false,
        paperId: folder.paperId,
        userId: input.userId,
        archive: { path: folder.submissionArchive, name: path.basename(folder.submissionArchive) },
        // PaperBench writes the agent's log beside grade.json: the blacklist monitor reads it.
        agentLog: agentLogIn(folder.dir),
        limits,
      });
    }
    if (folder.judgeOutputText !== null) {
      await importGrading(store, {
        paperId: folder.paperId,
        agentName: input.agent,
        runIndex: folder.run,
        variant,
        human: false,
        fileText: folder.judgeOutputText,
        fileName: `${folder.runGroupId}/${folder.runId}/${GRADE_FILE}`,
        userId: input.userId,
      });
    }
    const executed = folder.executedArchive ? await getBlobStore().putFile(folder.executedArchive) : null;
    await store.db.transaction(async (tx) => {
      const { agent } = await ensureAgentByName(tx, { name: input.agent });
      const { submission } = await ensureSubmission(tx, {
        paperId: folder.paperId,
        agentId: agent.id,
        runIndex: folder.run,
        variant,
        userId: input.userId,
      });
      if (executed) await insertBlob(tx, executed);
      await setSubmissionEvaluation(tx, submission.id, {
        evaluationId: evaluation.id,
        importedResult: folder.imported,
        executedArchiveSha256: executed?.sha256 ?? null,
      });
    });
  }

  const summary = await readEvaluationSummary(store, evaluation.id);
  const papers: Record<string, (number | null)[]> = {};
  for (const paperId of paperIds) papers[paperId] = Array.from({ length: runs }, () => null);
  for (const cell of summary.cells) papers[cell.paperId][cell.run - 1] = cell.score;
  return {
    result: {
      evaluationId: evaluation.id,
      agent: input.agent,
      runs,
      papers,
      runScores: summary.result.runScores,
      mean: summary.result.mean,
      se: summary.result.se,
    },
    summary,
  };
}

/** The folder whose children are run groups: `runs/` itself, or the one folder an archive wrapped it in. */
function findRunsRoot(dir: string): string {
  let at = dir;
  for (let depth = 0; depth < 4; depth++) {
    const children = subdirs(at);
    // A grade.json that is a link marks the root too: `refuseLinks` then names it.
    if (
      children.some((group) =>
        subdirs(path.join(at, group)).some((run) => entryKindAt(path.join(at, group, run, GRADE_FILE)) !== null),
      )
    )
      return at;
    if (children.length !== 1) return at;
    at = path.join(at, children[0]);
  }
  return at;
}

function bad(where: string, message: string): AppError {
  return new AppError("bad_request", `${where}: ${message}`, [{ path: where, message }]);
}

function readJsonFile(file: string, where: string): unknown {
  const read = readJsonText(readRealFile(file, where, GRADED_LIMITS.maxBytes), GRADED_LIMITS.maxBytes);
  if (!read.ok) throw bad(where, `${read.issue.path}: ${read.issue.message}`);
  return read.value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** PaperBench's latest `submissions/<timestamp>/` (timestamps sort as text). */
function agentLogIn(runDir: string): { path: string } | undefined {
  const file = path.join(runDir, "agent.log");
  return isRealFile(/*turbopackIgnore: true*/ file) ? { path: file } : undefined;
}

function latestSubmissionDir(runDir: string): string | null {
  const dir = path.join(runDir, "submissions");
  if (!isRealDirectory(dir)) return null;
  const stamps = subdirs(dir);
  return stamps.length > 0 ? path.join(dir, stamps[stamps.length - 1]) : null;
}

/** PaperBench's files in a run folder and its latest submission folder: a link in place of one is refused, never followed. */
const RUN_FILES = [GRADE_FILE, "agent.log", "submissions"];
const SUBMISSION_FILES = [
  "submission.tar.gz",
  "submission_executed.tar.gz",
  "submission_executed_metadata.json",
  "submission_executed_grader_output_0.json",
];

function refuseLinks(root: string): void {
  for (const group of subdirs(root)) {
    for (const runId of subdirs(path.join(root, group))) {
      const dir = path.join(root, group, runId);
      const latest = latestSubmissionDir(dir);
      const linked =
        firstLinkAmong(dir, RUN_FILES) ??
        (latest
          ? firstLinkAmong(
              dir,
              SUBMISSION_FILES.map((f) => path.relative(dir, path.join(latest, f))),
            )
          : null);
      if (linked) throw bad(`${group}/${runId}/${linked}`, LINK_NOT_FOLLOWED);
    }
  }
}

function readRunFolders(root: string): RunFolder[] {
  refuseLinks(root);
  const folders: RunFolder[] = [];
  const groups = subdirs(root).filter((group) =>
    subdirs(path.join(root, group)).some((run) => isRealFile(path.join(root, group, run, GRADE_FILE))),
  );
  groups.forEach((runGroupId, i) => {
    const seen = new Map<string, string>();
    for (const runId of subdirs(path.join(root, runGroupId))) {
      const dir = path.join(root, runGroupId, runId);
      const gradeFile = path.join(dir, GRADE_FILE);
      if (!isRealFile(gradeFile)) continue;
      const where = `${runGroupId}/${runId}/${GRADE_FILE}`;
      const grade = readJsonFile(gradeFile, where);
      const pb = isObject(grade) ? grade.paperbench_result : undefined;
      if (!isObject(pb)) throw bad(where, "has no paperbench_result object");
      if (typeof pb.paper_id !== "string" || pb.paper_id.length === 0)
        throw bad(where, "paperbench_result.paper_id is missing");
      const paperId = pb.paper_id;
      const twin = seen.get(paperId);
      if (twin)
        throw bad(
          where,
          `a second attempt at ${paperId} in run group ${runGroupId} (also ${twin}): a run group holds one run per paper`,
        );
      seen.set(paperId, runId);

      const latest = latestSubmissionDir(dir);
      const inLatest = (name: string) => {
        if (!latest) return null;
        const file = path.join(/*turbopackIgnore: true*/ latest, name);
        return isRealFile(/*turbopackIgnore: true*/ file) ? file : null;
      };
      let judgeOutputText: string | null = null;
      if (isObject(pb.judge_output)) judgeOutputText = JSON.stringify(pb.judge_output);
      else {
        const graderOutput = inLatest("submission_executed_grader_output_0.json");
        if (graderOutput)
          judgeOutputText = readRealFile(
            /*turbopackIgnore: true*/ graderOutput,
            `${runGroupId}/${runId}/submission_executed_grader_output_0.json`,
            GRADED_LIMITS.maxBytes,
          );
      }
      if (judgeOutputText !== null) {
        const parsed = parseGradedJson(judgeOutputText);
        if (!parsed.ok)
          throw bad(
            where,
            `the judge output is not a graded tree: ${parsed.errors.slice(0, 3).map(formatGradingIssue).join("; ")}`,
          );
      }
      const executedMetadata = inLatest("submission_executed_metadata.json");
      const reproduction = executedMetadata
        ? readJsonFile(executedMetadata, `${runGroupId}/${runId}/submission_executed_metadata.json`)
        : pb.reproduction_metadata;
      const score = isObject(grade) && typeof grade.score === "number" ? grade.score : null;
      folders.push({
        runGroupId,
        run: i + 1,
        runId,
        dir,
        paperId,
        variant: pb.code_only === true ? "code-dev" : "full",
        judgeOutputText,
        submissionArchive: inLatest("submission.tar.gz"),
        executedArchive: inLatest("submission_executed.tar.gz"),
        imported: {
          runId: typeof pb.run_id === "string" ? pb.run_id : runId,
          runGroupId,
          reproduction: isObject(reproduction) ? reproduction : null,
          judgeOutputMissing: judgeOutputText === null,
          codeOnly: typeof pb.code_only === "boolean" ? pb.code_only : null,
          resourcesProvided: typeof pb.resources_provided === "boolean" ? pb.resources_provided : null,
          score,
        },
      });
    }
  });
  return folders;
}

/** Everything that would refuse a run, before anything is written: papers, archives, runs the agent already has. */
async function precheck(store: Store, folders: RunFolder[], agentName: string, variant: Variant): Promise<void> {
  const agent = await getAgentByName(store.db, agentName);
  const limits = submissionLimits();
  for (const folder of folders) {
    const where = `${folder.runGroupId}/${folder.runId}`;
    if (!(await getPaperById(store.db, folder.paperId)))
      throw bad(where, `no paper with id "${folder.paperId}" in the studio: import it first`);
    if (folder.judgeOutputText !== null && !(await getRubricByPaperId(store.db, folder.paperId)))
      throw bad(where, `the paper "${folder.paperId}" has no rubric yet: import its rubric.json first`);
    if (folder.submissionArchive)
      await checkSubmissionArchive(folder.submissionArchive, "submission.tar.gz", limits, where);
    if (folder.executedArchive)
      await checkSubmissionArchive(folder.executedArchive, "submission_executed.tar.gz", limits, where);
    if (
      agent &&
      (await getSubmissionByRun(store.db, {
        paperId: folder.paperId,
        agentId: agent.id,
        runIndex: folder.run,
        variant,
      }))
    ) {
      throw new AppError(
        "conflict",
        `${where}: ${agentName} already has run ${folder.run} of ${folder.paperId} (${variant}); ingest under another agent name`,
        [{ path: "agent", message: "already has these runs" }],
      );
    }
  }
}
