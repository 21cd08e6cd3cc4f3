import "server-only";
import { createHash } from "node:crypto";
import type { Executor, Store } from "@/db/client";
import { ensureAgentByName, listAgents } from "@/db/queries/agents";
import { findGradedVersionByFingerprint, findRubricVersionIdByShape, insertGrading } from "@/db/queries/gradings";
import { insertVerdicts, type NewVerdict } from "@/db/queries/grading-verdicts";
import { getPaperById } from "@/db/queries/papers";
import { insertRubricVersion } from "@/db/queries/rubric-versions";
import { getLiveNodeRows, getRubricByPaperId, lockRubricById } from "@/db/queries/rubrics";
import { ensureSubmission, replaceSubmissionArchive } from "@/db/queries/submissions";
import type { GradingKind, GradingSource } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { formatGradingIssue, parseGradedJson, preorder, toRubricTree } from "@/lib/grading/graded-tree";
import type { GradedNode, GradedStats, GradingWarning, JsonValue } from "@/lib/grading/types";
import type { Variant } from "@/lib/grading/variant";
import { buildPinnedGradedTree, isSameRubric, viewRows } from "@/lib/grading/pinned-tree";
import { treeToRows, type NodeRow } from "@/lib/rubric/tree-rows";
import { agentNameSchema, runIndexSchema, submissionVariantSchema } from "@/lib/submissions/schemas";
import { fallbackProvenance, isPlaceholderJudge } from "@/lib/evaluations/provenance";
import { archiveSummary, type ArchiveSummary, type SubmissionArchive } from "@/server/submissions/archive";
import { badField, fieldPredicate } from "@/server/http/zod-details";

export interface ImportGradingInput {
  paperId: string;
  agentName: string;
  /** Describe the agent when the import creates it (an existing agent keeps its own). */
  agentScaffold?: string | null;
  agentModel?: string | null;
  runIndex: number;
  variant: Variant;
  /** A human expert's grading (PaperBench's `expected_result.json`), else a judge's. */
  human: boolean;
  /** The text of a bare graded tree or of a judge output (`grader_output.json`). */
  fileText: string;
  fileName?: string | null;
  /** The submitted repository, read by `readSubmissionArchive`; replaces any stored before. */
  archive?: SubmissionArchive | null;
  userId: string | null;
}

export interface ImportGradingResult {
  gradingId: string;
  submissionId: string;
  agentId: string;
  createdAgent: boolean;
  createdSubmission: boolean;
  rubricVersionId: string;
  /**
   * `live`: the graded tree is the paper's rubric as it is now, and a version of it is pinned
   * (`reusedVersion`: one that existed at this revision); `graded_tree`: it differs, and became a
   * version of its own.
   */
  pinned: "live" | "graded_tree";
  reusedVersion: boolean;
  rubricView: Variant;
  /** The root score recomputed from the stored verdicts, and the one written in the file. */
  score: number;
  importedScore: number;
  /** `score` equals `importedScore` bit for bit. */
  scoreMatchesFile: boolean;
  stats: GradedStats;
  warnings: GradingWarning[];
  /** `notes`: what was not kept or was changed to be kept (a log's NULs replaced), and why. */
  archive: ArchiveSummary | null;
}

export interface AgentChoice {
  id: string;
  name: string;
  model: string | null;
  scaffold: string | null;
}

/** The agents an import can name, by name: the import form's list. */
export async function listAgentChoices(store: Store): Promise<AgentChoice[]> {
  return (await listAgents(store.db)).map(({ id, name, model, scaffold }) => ({ id, name, model, scaffold }));
}

/** A PaperBench timestamp (`2025-04-01T12-30-05-UTC`) or an ISO date, else null. */
function parseGradedAt(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})(?:\.\d+)?-UTC$/.exec(text);
  if (m) return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  const d = /^\d{4}-\d{2}-\d{2}/.test(text) ? new Date(text) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
}

function judgeModelOf(completerConfig: JsonValue): string | null {
  if (completerConfig && typeof completerConfig === "object" && !Array.isArray(completerConfig)) {
    const model = completerConfig.model;
    if (typeof model === "string") return model;
  }
  return null;
}

/**
 * Imports a graded tree (or a judge output) as a grading of one run of an agent on a paper, in one
 * transaction: the agent and the submission are created when new, the rubric version is pinned
 * (the live rubric when the graded tree is it, else the graded tree as a version of its own), a
 * verdict is stored per leaf, and the archive of the submitted repository replaces any before.
 * A malformed file is a 400 naming every problem by JSON path, and nothing is written.
 */
export async function importGrading(store: Store, input: ImportGradingInput): Promise<ImportGradingResult> {
  return importGradingInTransaction(store.db, input);
}

/** `importGrading` inside the caller's transaction (the demo seed's), as a savepoint of it. */
export async function importGradingInTransaction(
  db: Executor,
  input: ImportGradingInput,
): Promise<ImportGradingResult> {
  const agentName = agentNameSchema.safeParse(input.agentName);
  if (!agentName.success) throw badField("agent", fieldPredicate(agentName.error));
  const runIndex = runIndexSchema.safeParse(input.runIndex);
  if (!runIndex.success) throw badField("run", fieldPredicate(runIndex.error));
  const variant = submissionVariantSchema.safeParse(input.variant);
  if (!variant.success) throw badField("variant", fieldPredicate(variant.error));

  const label = input.fileName ?? "The graded file";
  const parsed = parseGradedJson(input.fileText);
  if (!parsed.ok) {
    const shown = parsed.errors.slice(0, 3).map(formatGradingIssue).join("; ");
    const more = parsed.errors.length > 3 ? ` (and ${parsed.errors.length - 3} more)` : "";
    throw new AppError("bad_request", `${label} is not a graded tree: ${shown}${more}`, parsed.errors);
  }
  const { file, warnings } = parsed;
  const meta = file.judgeOutput;
  const nodes = preorder(file.tree);

  return db.transaction(async (tx) => {
    const paper = await getPaperById(tx, input.paperId);
    if (!paper) throw new AppError("not_found", `No paper with id "${input.paperId}"`);
    const found = await getRubricByPaperId(tx, paper.id);
    if (!found)
      throw new AppError("conflict", `The paper "${paper.id}" has no rubric yet: import its rubric.json first`);
    // Share lock: the revision and the live rows compared below belong together.
    const rubric = await lockRubricById(tx, found.id, "share");
    const liveRows = await getLiveNodeRows(tx, rubric.id);
    const liveView = liveRows.length > 0 ? viewRows(liveRows, variant.data) : [];

    const fingerprint = rubricFingerprint(file.tree);
    let pinned: ImportGradingResult["pinned"];
    let rubricView: Variant;
    let versionId: string;
    let reusedVersion = false;
    let pinnedRows: readonly NodeRow[];
    const matchesLive = liveView.length > 0 && isSameRubric(file.tree, liveView);
    const earlier = matchesLive ? null : await findGradedVersion(tx, rubric.id, fingerprint, file.tree);
    if (matchesLive) {
      pinned = "live";
      rubricView = variant.data;
      pinnedRows = liveView;
      ({ versionId, reused: reusedVersion } = await pinLiveVersion(tx, rubric, liveRows, input.userId));
    } else if (earlier) {
      // The same tree was graded before: pin the version that grading pinned.
      pinned = "graded_tree";
      reusedVersion = true;
      ({ versionId, rubricView, rows: pinnedRows } = earlier);
    } else {
      pinned = "graded_tree";
      rubricView = "full";
      // Pre-order rows: index i is node i of the graded tree.
      const treeRows = treeToRows(toRubricTree(file.tree));
      pinnedRows = treeRows;
      versionId = (
        await insertRubricVersion(tx, {
          rubricId: rubric.id,
          revision: rubric.revision,
          name: `Graded tree: ${input.fileName ?? "upload"} (${agentName.data}, run ${runIndex.data})`,
          rows: treeRows,
          userId: input.userId,
        })
      ).id;
    }
    const keys = pinnedRows.map((r) => r.key);

    const verdicts: NewVerdict[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (node.sub_tasks.length > 0) continue;
      verdicts.push({
        nodeKey: keys[i],
        nodeId: node.id,
        score: node.score,
        valid: node.valid_score,
        explanation: node.explanation,
        judgeMetadata: node.judge_metadata,
        fileDetail: node.file?.validScoreNumber !== undefined ? { validScoreNumber: node.file.validScoreNumber } : null,
        source: "import",
      });
    }
    // The score as the stored rows will give it back, computed the way every reader computes it.
    const score = buildPinnedGradedTree(pinnedRows, verdicts).scores.rootScore;
    if (!Object.is(score, file.tree.score)) {
      throw new Error(`Stored verdicts give a root score of ${score}; the parsed tree gives ${file.tree.score}`);
    }

    const { agent, created: createdAgent } = await ensureAgentByName(tx, {
      name: agentName.data,
      scaffold: input.agentScaffold ?? null,
      model: input.agentModel ?? null,
    });
    const { submission, created: createdSubmission } = await ensureSubmission(tx, {
      paperId: paper.id,
      agentId: agent.id,
      runIndex: runIndex.data,
      variant: variant.data,
      userId: input.userId,
    });
    if (input.archive) await replaceSubmissionArchive(tx, submission.id, input.archive);

    const kind: GradingKind = input.human ? "human" : "judge";
    const source: GradingSource = {
      format: file.kind,
      fileName: input.fileName ?? null,
      sha256: createHash("sha256").update(input.fileText, "utf8").digest("hex"),
      bytes: Buffer.byteLength(input.fileText, "utf8"),
      judgeOutput: meta,
      ...(nodes.some((n) => n.file?.hasFinegrained) ? { finegrained: true } : {}),
      warnings: warnings.map(formatGradingIssue),
    };
    const judgeTypeOf = meta?.judge_type ?? (input.human ? "human" : null);
    const judgeModelOfMeta = meta ? judgeModelOf(meta.completer_config) : null;
    const gradingId = await insertGrading(tx, {
      submissionId: submission.id,
      rubricVersionId: versionId,
      rubricView,
      rubricFingerprint: fingerprint,
      kind,
      judgeType: judgeTypeOf,
      judgeModel: judgeModelOfMeta,
      gradedAt: meta ? parseGradedAt(meta.graded_at) : null,
      tokenUsage: meta?.token_usage ?? null,
      importedScore: file.fileRootScore,
      score,
      source,
      createdBy: input.userId,
      // An imported file says who graded it only through `judge_type` (a placeholder's is kept).
      provenance: fallbackProvenance({ kind, judgeType: judgeTypeOf, judgeModel: judgeModelOfMeta }),
      judgePlaceholder: isPlaceholderJudge(judgeTypeOf),
    });
    await insertVerdicts(tx, gradingId, verdicts);

    return {
      gradingId,
      submissionId: submission.id,
      agentId: agent.id,
      createdAgent,
      createdSubmission,
      rubricVersionId: versionId,
      pinned,
      reusedVersion,
      rubricView,
      score,
      importedScore: file.fileRootScore,
      scoreMatchesFile: Object.is(score, file.fileRootScore),
      stats: file.stats,
      warnings,
      archive: input.archive ? archiveSummary(input.archive) : null,
    };
  });
}

/**
 * sha-256 of a graded tree's rubric in pre-order: ids, texts, weights, categories, shape (the
 * fine-grained category where the file had one).
 */
export function rubricFingerprint(tree: GradedNode): string {
  const hash = createHash("sha256");
  for (const node of preorder(tree)) {
    hash.update(
      JSON.stringify([
        node.id,
        node.requirements,
        node.weight,
        node.task_category,
        node.file?.hasFinegrained ? node.finegrained_task_category : 0,
        node.sub_tasks.length,
      ]),
    );
    hash.update("\n");
  }
  return hash.digest("hex");
}

/** The version (and view) an earlier grading of the same tree pinned, checked node by node. */
async function findGradedVersion(
  tx: Executor,
  rubricId: string,
  fingerprint: string,
  tree: GradedNode,
): Promise<{ versionId: string; rubricView: Variant; rows: readonly NodeRow[] } | null> {
  const candidate = await findGradedVersionByFingerprint(tx, rubricId, fingerprint);
  if (!candidate) return null;
  const rows = viewRows(candidate.rows, candidate.rubricView);
  return isSameRubric(tree, rows) ? { versionId: candidate.versionId, rubricView: candidate.rubricView, rows } : null;
}

/**
 * The version a grading of the live rubric pins (rows under the share lock of `rubric`): the one
 * already made from the live tree at this revision, else a new one.
 */
export async function pinLiveVersion(
  tx: Executor,
  rubric: { id: string; revision: number },
  liveRows: NodeRow[],
  userId: string | null,
): Promise<{ versionId: string; reused: boolean }> {
  const existing = await findLiveVersionId(tx, rubric.id, rubric.revision, liveRows);
  if (existing) return { versionId: existing, reused: true };
  const version = await insertRubricVersion(tx, {
    rubricId: rubric.id,
    revision: rubric.revision,
    name: `Graded at revision ${rubric.revision}`,
    rows: liveRows,
    userId,
  });
  return { versionId: version.id, reused: false };
}

/**
 * A version that is the live tree at this revision: made at the same revision from the same rows
 * (the live rows' keys; a version of a graded tree has keys of its own).
 */
async function findLiveVersionId(
  tx: Executor,
  rubricId: string,
  revision: number,
  liveRows: readonly NodeRow[],
): Promise<string | null> {
  const root = liveRows.find((r) => r.parentKey === null);
  if (!root) return null;
  return findRubricVersionIdByShape(tx, { rubricId, revision, rowCount: liveRows.length, rootKey: root.key });
}
