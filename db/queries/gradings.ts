import "server-only";
import { createHash } from "node:crypto";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { formatGradingIssue, parseGradedJson, preorder, toRubricTree } from "@/lib/grading/graded-tree";
import { gradingLeavesCsv, serializeGradedTree, serializeJudgeOutput } from "@/lib/grading/serialize";
import type { GradedNode, GradedStats, GradingWarning, JsonValue } from "@/lib/grading/types";
import type { Variant } from "@/lib/grading/variant";
import { buildPinnedGradedTree, isSameRubric, viewRows, type PinnedGradedTree, type StoredVerdict } from "@/lib/review/pinned-tree";
import { treeToRows, type NodeRow } from "@/lib/rubric/tree-rows";
import type { SubmissionArchive } from "@/server/submissions/archive";
import { agentNameSchema, runIndexSchema, submissionVariantSchema } from "@/lib/submissions/schemas";
import type { Executor } from "../client";
import {
  agents,
  gradingOverrides,
  gradingVerdicts,
  gradings,
  rubricVersions,
  rubrics,
  submissions,
  users,
  type Grading,
  type GradingKind,
  type GradingOverride,
  type GradingSource,
  type SubmissionVariant,
  type VerdictSource,
} from "../schema";
import { ensureAgentByName } from "./agents";
import { getPaperById } from "./papers";
import { getLiveNodeRows } from "./rubrics";
import { ensureSubmission, replaceSubmissionArchive } from "./submissions";
import { toUserRef, type UserRef } from "./users";

// ── Import ───────────────────────────────────────────────────────────────────

export interface ImportGradingInput {
  paperId: string;
  agentName: string;
  runIndex: number;
  variant: SubmissionVariant;
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
  archive: { files: number; kept: number; hasReproduceLog: boolean } | null;
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

function badField(path: string, message: string): AppError {
  return new AppError("bad_request", `${path}: ${message}`, [{ path, message }]);
}

/**
 * Imports a graded tree (or a judge output) as a grading of one run of an agent on a paper, in one
 * transaction: the agent and the submission are created when new, the rubric version is pinned
 * (the live rubric when the graded tree is it, else the graded tree as a version of its own), a
 * verdict is stored per leaf, and the archive of the submitted repository replaces any before.
 * A malformed file is a 400 naming every problem by JSON path, and nothing is written.
 */
export async function importGrading(db: Executor, input: ImportGradingInput): Promise<ImportGradingResult> {
  const agentName = agentNameSchema.safeParse(input.agentName);
  if (!agentName.success) throw badField("agent", agentName.error.issues[0].message);
  const runIndex = runIndexSchema.safeParse(input.runIndex);
  if (!runIndex.success) throw badField("run", runIndex.error.issues[0].message);
  const variant = submissionVariantSchema.safeParse(input.variant);
  if (!variant.success) throw badField("variant", variant.error.issues[0].message);

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
    // Share lock: the revision and the live rows compared below belong together.
    const [rubric] = await tx.select().from(rubrics).where(eq(rubrics.paperId, paper.id)).for("share");
    if (!rubric) throw new AppError("conflict", `The paper "${paper.id}" has no rubric yet: import its rubric.json first`);
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
      const existing = await findLiveVersionId(tx, rubric.id, rubric.revision, liveRows);
      reusedVersion = existing !== null;
      versionId =
        existing ??
        (await insertRubricVersion(tx, {
          rubricId: rubric.id,
          revision: rubric.revision,
          name: `Graded at revision ${rubric.revision}`,
          rows: liveRows,
          userId: input.userId,
        }));
    } else if (earlier) {
      // The same tree was graded before: pin the version that grading pinned.
      pinned = "graded_tree";
      reusedVersion = true;
      ({ versionId, rubricView, rows: pinnedRows } = earlier);
    } else {
      pinned = "graded_tree";
      rubricView = "full";
      // Pre-order rows: index i is node i of the graded tree.
      pinnedRows = treeToRows(toRubricTree(file.tree));
      versionId = await insertRubricVersion(tx, {
        rubricId: rubric.id,
        revision: rubric.revision,
        name: `Graded tree: ${input.fileName ?? "upload"} (${agentName.data}, run ${runIndex.data})`,
        rows: pinnedRows,
        userId: input.userId,
      });
    }
    const keys = pinnedRows.map((r) => r.key);

    const verdicts: (StoredVerdict & { nodeId: string; source: VerdictSource })[] = [];
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

    const { agent, created: createdAgent } = await ensureAgentByName(tx, { name: agentName.data });
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
    const [grading] = await tx
      .insert(gradings)
      .values({
        submissionId: submission.id,
        rubricVersionId: versionId,
        rubricView,
        rubricFingerprint: fingerprint,
        kind,
        judgeType: meta?.judge_type ?? (input.human ? "human" : null),
        judgeModel: meta ? judgeModelOf(meta.completer_config) : null,
        gradedAt: meta ? parseGradedAt(meta.graded_at) : null,
        tokenUsage: meta?.token_usage ?? null,
        importedScore: file.fileRootScore,
        score,
        source,
        createdBy: input.userId,
      })
      .returning({ id: gradings.id });
    await insertVerdicts(tx, grading.id, verdicts);

    return {
      gradingId: grading.id,
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
      archive: input.archive
        ? {
            files: input.archive.files.length,
            kept: input.archive.files.filter((f) => f.content !== null).length,
            hasReproduceLog: input.archive.reproduceLog !== null,
          }
        : null,
    };
  });
}

/**
 * sha-256 of a graded tree's rubric in pre-order: ids, texts, weights, categories, shape (the
 * fine-grained category where the file had one).
 */
function rubricFingerprint(tree: GradedNode): string {
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
  const candidates = await tx
    .select({ versionId: gradings.rubricVersionId, rubricView: gradings.rubricView, snapshot: rubricVersions.snapshot })
    .from(gradings)
    .innerJoin(rubricVersions, eq(rubricVersions.id, gradings.rubricVersionId))
    .where(and(eq(gradings.rubricFingerprint, fingerprint), eq(rubricVersions.rubricId, rubricId)))
    .orderBy(asc(gradings.createdAt))
    .limit(1);
  for (const c of candidates) {
    const rows = viewRows((c.snapshot as { rows: NodeRow[] }).rows, c.rubricView);
    if (isSameRubric(tree, rows)) return { versionId: c.versionId, rubricView: c.rubricView, rows };
  }
  return null;
}

/**
 * A version that is the live tree at this revision: made at the same revision from the same rows
 * (the live rows' keys; a version of a graded tree has keys of its own).
 */
async function findLiveVersionId(tx: Executor, rubricId: string, revision: number, liveRows: readonly NodeRow[]): Promise<string | null> {
  const root = liveRows.find((r) => r.parentKey === null);
  if (!root) return null;
  const [row] = await tx
    .select({ id: rubricVersions.id })
    .from(rubricVersions)
    .where(
      and(
        eq(rubricVersions.rubricId, rubricId),
        eq(rubricVersions.revision, revision),
        sql`jsonb_array_length(${rubricVersions.snapshot}->'rows') = ${liveRows.length}`,
        sql`${rubricVersions.snapshot}->'rows' @> ${JSON.stringify([{ key: root.key, parentKey: null }])}::jsonb`,
      ),
    )
    .orderBy(asc(rubricVersions.createdAt))
    .limit(1);
  return row?.id ?? null;
}

async function insertRubricVersion(
  tx: Executor,
  input: { rubricId: string; revision: number; name: string; rows: readonly NodeRow[]; userId: string | null },
): Promise<string> {
  // The snapshot shape of db/queries/rubric-versions.ts: `{ rows: NodeRow[] }`.
  const [version] = await tx
    .insert(rubricVersions)
    .values({ rubricId: input.rubricId, name: input.name, revision: input.revision, snapshot: { rows: input.rows }, createdBy: input.userId })
    .returning({ id: rubricVersions.id });
  return version.id;
}

/** Inserts verdicts in one statement per batch, as one JSON parameter (see insertNodeRows). */
async function insertVerdicts(
  tx: Executor,
  gradingId: string,
  verdicts: readonly (StoredVerdict & { nodeId: string; source: VerdictSource })[],
): Promise<void> {
  const BATCH = 5_000;
  for (let start = 0; start < verdicts.length; start += BATCH) {
    const payload = JSON.stringify(
      verdicts.slice(start, start + BATCH).map((v) => ({
        node_key: v.nodeKey,
        node_id: v.nodeId,
        score: v.score,
        valid: v.valid,
        explanation: v.explanation,
        source: v.source,
        judge_metadata: v.judgeMetadata ?? null,
        file_detail: v.fileDetail ?? null,
      })),
    );
    await tx.execute(sql`
      INSERT INTO grading_verdicts (grading_id, node_key, node_id, score, valid, explanation, source, judge_metadata, file_detail)
      SELECT ${gradingId}::uuid, x.node_key, x.node_id, x.score, x.valid, x.explanation, x.source::verdict_source,
             x.judge_metadata, x.file_detail
      FROM jsonb_to_recordset(${payload}::jsonb) AS x(
        node_key uuid, node_id text, score float8, valid boolean, explanation text, source text,
        judge_metadata jsonb, file_detail jsonb)
    `);
  }
}

// ── Reading ──────────────────────────────────────────────────────────────────

export async function getGradingById(db: Executor, id: string): Promise<Grading | null> {
  const [row] = await db.select().from(gradings).where(eq(gradings.id, id)).limit(1);
  return row ?? null;
}

export interface GradingListItem {
  id: string;
  paperId: string;
  submissionId: string;
  agentId: string;
  agentName: string;
  runIndex: number;
  variant: SubmissionVariant;
  kind: GradingKind;
  judgeType: string | null;
  judgeModel: string | null;
  gradedAt: Date | null;
  /** The effective root score (latest overrides applied). */
  score: number;
  importedScore: number | null;
  rubricVersionId: string;
  rubricVersionName: string;
  rubricRevision: number;
  rubricView: SubmissionVariant;
  leafCount: number;
  overrideCount: number;
  fileName: string | null;
  createdAt: Date;
  createdBy: UserRef | null;
}

const listColumns = {
  id: gradings.id,
  paperId: submissions.paperId,
  submissionId: gradings.submissionId,
  agentId: submissions.agentId,
  agentName: agents.name,
  runIndex: submissions.runIndex,
  variant: submissions.variant,
  kind: gradings.kind,
  judgeType: gradings.judgeType,
  judgeModel: gradings.judgeModel,
  gradedAt: gradings.gradedAt,
  score: gradings.score,
  importedScore: gradings.importedScore,
  rubricVersionId: gradings.rubricVersionId,
  rubricVersionName: rubricVersions.name,
  rubricRevision: rubricVersions.revision,
  rubricView: gradings.rubricView,
  leafCount: sql<number>`(SELECT count(*)::int FROM ${gradingVerdicts} WHERE ${gradingVerdicts.gradingId} = ${gradings.id})`,
  overrideCount: sql<number>`(SELECT count(*)::int FROM ${gradingOverrides} WHERE ${gradingOverrides.gradingId} = ${gradings.id})`,
  fileName: sql<string | null>`${gradings.source}->>'fileName'`,
  createdAt: gradings.createdAt,
  createdByName: users.name,
  createdByEmail: users.email,
};

function listQuery(db: Executor) {
  return db
    .select(listColumns)
    .from(gradings)
    .innerJoin(submissions, eq(submissions.id, gradings.submissionId))
    .innerJoin(agents, eq(agents.id, submissions.agentId))
    .innerJoin(rubricVersions, eq(rubricVersions.id, gradings.rubricVersionId))
    .leftJoin(users, eq(users.id, gradings.createdBy));
}

function toListItem(row: Awaited<ReturnType<ReturnType<typeof listQuery>["execute"]>>[number]): GradingListItem {
  const { createdByName, createdByEmail, ...rest } = row;
  return {
    ...rest,
    leafCount: Number(rest.leafCount),
    overrideCount: Number(rest.overrideCount),
    createdBy: toUserRef(createdByName, createdByEmail),
  };
}

/** The gradings of a paper's submissions, by agent, variant and run, newest grading first. */
export async function listGradingsByPaperId(db: Executor, paperId: string): Promise<GradingListItem[]> {
  const rows = await listQuery(db)
    .where(eq(submissions.paperId, paperId))
    .orderBy(asc(agents.name), asc(submissions.variant), asc(submissions.runIndex), desc(gradings.createdAt));
  return rows.map(toListItem);
}

/** One grading with its run (paper, agent, run), or null. */
export async function getGradingItemById(db: Executor, id: string): Promise<GradingListItem | null> {
  const [row] = await listQuery(db).where(eq(gradings.id, id)).limit(1);
  return row ? toListItem(row) : null;
}

/** The graded tree of a grading: the pinned rubric version with its verdicts and overrides. */
export async function getPinnedGradedTree(db: Executor, grading: Pick<Grading, "id" | "rubricVersionId" | "rubricView">): Promise<PinnedGradedTree> {
  const [version] = await db
    .select({ snapshot: rubricVersions.snapshot })
    .from(rubricVersions)
    .where(eq(rubricVersions.id, grading.rubricVersionId))
    .limit(1);
  if (!version) throw new AppError("not_found", "The grading's rubric version is gone");
  const rows = viewRows((version.snapshot as { rows: NodeRow[] }).rows, grading.rubricView);
  const verdicts = await db
    .select({
      nodeKey: gradingVerdicts.nodeKey,
      score: gradingVerdicts.score,
      valid: gradingVerdicts.valid,
      explanation: gradingVerdicts.explanation,
      judgeMetadata: gradingVerdicts.judgeMetadata,
      fileDetail: gradingVerdicts.fileDetail,
    })
    .from(gradingVerdicts)
    .where(eq(gradingVerdicts.gradingId, grading.id));
  const overrides = await db
    .select({ nodeKey: gradingOverrides.nodeKey, newScore: gradingOverrides.newScore })
    .from(gradingOverrides)
    .where(eq(gradingOverrides.gradingId, grading.id))
    .orderBy(asc(gradingOverrides.seq));
  return buildPinnedGradedTree(
    rows,
    verdicts.map((v) => ({ ...v, judgeMetadata: (v.judgeMetadata ?? null) as JsonValue })),
    overrides,
  );
}

export interface EffectiveLeafScore {
  nodeKey: string;
  nodeId: string;
  /** The verdict's score and validity. */
  verdictScore: number;
  valid: boolean;
  source: VerdictSource;
  /** The latest override's score, or null. */
  overrideScore: number | null;
  /** What the leaf counts: the latest override, else the verdict (0 when the verdict is invalid). */
  effectiveScore: number;
}

/** Each leaf's effective score: its latest override, else its verdict. */
export async function listEffectiveLeafScores(db: Executor, gradingId: string): Promise<EffectiveLeafScore[]> {
  const rows = await db.execute(sql`
    SELECT v.node_key, v.node_id, v.score, v.valid, v.source, o.new_score
    FROM ${gradingVerdicts} v
    LEFT JOIN LATERAL (
      SELECT new_score FROM ${gradingOverrides} o
      WHERE o.grading_id = v.grading_id AND o.node_key = v.node_key
      ORDER BY o.seq DESC LIMIT 1
    ) o ON true
    WHERE v.grading_id = ${gradingId}
    ORDER BY v.node_key
  `);
  return (rows.rows as Record<string, unknown>[]).map((r) => {
    const overrideScore = r.new_score === null ? null : Number(r.new_score);
    const verdictScore = Number(r.score);
    const valid = Boolean(r.valid);
    return {
      nodeKey: String(r.node_key),
      nodeId: String(r.node_id),
      verdictScore,
      valid,
      source: r.source as VerdictSource,
      overrideScore,
      effectiveScore: overrideScore ?? (valid ? verdictScore : 0),
    };
  });
}

// ── Overrides ────────────────────────────────────────────────────────────────

export interface GradingOverrideItem {
  id: string;
  nodeKey: string;
  nodeId: string;
  oldScore: number;
  newScore: number;
  reason: string;
  createdAt: Date;
  user: UserRef | null;
}

export async function listGradingOverrides(db: Executor, gradingId: string): Promise<GradingOverrideItem[]> {
  const rows = await db
    .select({
      id: gradingOverrides.id,
      nodeKey: gradingOverrides.nodeKey,
      nodeId: gradingVerdicts.nodeId,
      oldScore: gradingOverrides.oldScore,
      newScore: gradingOverrides.newScore,
      reason: gradingOverrides.reason,
      createdAt: gradingOverrides.createdAt,
      userName: users.name,
      userEmail: users.email,
    })
    .from(gradingOverrides)
    .innerJoin(
      gradingVerdicts,
      and(eq(gradingVerdicts.gradingId, gradingOverrides.gradingId), eq(gradingVerdicts.nodeKey, gradingOverrides.nodeKey)),
    )
    .leftJoin(users, eq(users.id, gradingOverrides.userId))
    .where(eq(gradingOverrides.gradingId, gradingId))
    .orderBy(asc(gradingOverrides.seq));
  return rows.map(({ userName, userEmail, ...r }) => ({ ...r, user: toUserRef(userName, userEmail) }));
}

/**
 * Appends a human override of one leaf's score (never changes one) and brings the grading's
 * effective root score up to date, in one transaction. `oldScore` is the leaf's effective score
 * before: its latest override, else its verdict (0 when the verdict is invalid).
 */
export async function addGradingOverride(
  db: Executor,
  input: { gradingId: string; nodeKey: string; userId: string | null; score: number; reason: string },
): Promise<{ override: GradingOverride; score: number }> {
  if (!(typeof input.score === "number" && input.score >= 0 && input.score <= 1)) {
    throw badField("score", "must be a number between 0 and 1");
  }
  return db.transaction(async (tx) => {
    // Row lock: overrides of one grading take turns, so each sees the one before as its old score.
    const [grading] = await tx.select().from(gradings).where(eq(gradings.id, input.gradingId)).for("update");
    if (!grading) throw new AppError("not_found", "No such grading");
    const [verdict] = await tx
      .select({ score: gradingVerdicts.score, valid: gradingVerdicts.valid })
      .from(gradingVerdicts)
      .where(and(eq(gradingVerdicts.gradingId, grading.id), eq(gradingVerdicts.nodeKey, input.nodeKey)))
      .limit(1);
    if (!verdict) throw badField("nodeKey", "is not a graded leaf of this grading");
    const [latest] = await tx
      .select({ newScore: gradingOverrides.newScore })
      .from(gradingOverrides)
      .where(and(eq(gradingOverrides.gradingId, grading.id), eq(gradingOverrides.nodeKey, input.nodeKey)))
      .orderBy(desc(gradingOverrides.seq))
      .limit(1);
    const oldScore = latest ? latest.newScore : verdict.valid ? verdict.score : 0;
    const [override] = await tx
      .insert(gradingOverrides)
      .values({
        gradingId: grading.id,
        nodeKey: input.nodeKey,
        userId: input.userId,
        oldScore,
        newScore: input.score,
        reason: input.reason,
      })
      .returning();
    const { scores } = await getPinnedGradedTree(tx, grading);
    await tx.update(gradings).set({ score: scores.rootScore }).where(eq(gradings.id, grading.id));
    return { override, score: scores.rootScore };
  });
}

// ── Export ───────────────────────────────────────────────────────────────────

export type GradingExportFormat = "json" | "judge_output" | "csv";

export interface GradingExport {
  body: string;
  contentType: string;
  fileName: string;
}

/**
 * A grading as a file, with the effective scores (latest overrides applied): `json` a PaperBench
 * graded tree (`expected_result.json`), `judge_output` PaperBench's `grader_output.json` wrapper
 * (the imported wrapper's fields kept), `csv` one row per leaf.
 */
export async function getGradingExport(db: Executor, gradingId: string, format: GradingExportFormat): Promise<GradingExport> {
  const item = await getGradingItemById(db, gradingId);
  const grading = await getGradingById(db, gradingId);
  if (!item || !grading) throw new AppError("not_found", "No such grading");
  const pinned = await getPinnedGradedTree(db, grading);
  const tree = pinned.scores.toTree();
  // A file that wrote fine-grained categories gets them back.
  if (grading.source.finegrained) for (const node of preorder(tree)) node.file = { ...node.file, hasFinegrained: true };
  const base = `${item.paperId}-${slug(item.agentName)}-run${item.runIndex}${item.variant === "code-dev" ? "-code-dev" : ""}-${grading.kind}`;
  if (format === "csv") {
    const leaves = await listEffectiveLeafScores(db, gradingId);
    const byKey = new Map(leaves.map((l) => [l.nodeKey, l]));
    const body = gradingLeavesCsv(tree, (_leaf, index) => {
      const leaf = byKey.get(pinned.keys[index]);
      if (!leaf) return { judgeScore: null, source: "ungraded" };
      return { judgeScore: leaf.verdictScore, source: leaf.overrideScore !== null ? "human" : leaf.source };
    });
    return { body, contentType: "text/csv; charset=utf-8", fileName: `${base}.csv` };
  }
  if (format === "judge_output") {
    const body = serializeJudgeOutput(tree, {
      meta: grading.source.judgeOutput ?? null,
      judgeType: grading.judgeType ?? grading.kind,
      gradedAt: grading.gradedAt ? paperBenchTime(grading.gradedAt) : undefined,
    });
    return { body, contentType: "application/json; charset=utf-8", fileName: `${base}-grader_output.json` };
  }
  return { body: serializeGradedTree(tree), contentType: "application/json; charset=utf-8", fileName: `${base}.json` };
}

function paperBenchTime(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getUTCFullYear()}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())}T${p(date.getUTCHours())}-${p(date.getUTCMinutes())}-${p(date.getUTCSeconds())}-UTC`;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "agent";
}

// ── Leaderboard ──────────────────────────────────────────────────────────────

