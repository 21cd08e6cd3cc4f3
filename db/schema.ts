import type { InferInsertModel, InferSelectModel } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { PAPER_ROLES, type PaperRole } from "@/lib/auth/access";
import type { JudgeOutputMeta } from "@/lib/grading/types";
import type { GradingProvenance } from "@/lib/evaluations/provenance";
import { VARIANTS, type Variant } from "@/lib/grading/variant";
import { NOTIFICATION_KINDS, type NotificationKind } from "@/lib/notifications/kinds";
import { JOB_KINDS, JOB_STATUSES } from "@/lib/jobs/states";
import type { RunnerCapabilities } from "@/lib/runner/protocol";
import { JUDGE_KINDS, JUDGE_MODES } from "@/lib/judge/config";
import type {
  Aggregation,
  EvaluationPolicies,
  EvaluationSetup,
  FailureKind,
  ImportedRunResult,
} from "@/lib/evaluations/schemas";
import type { PipelineStage } from "@/lib/evaluations/pipeline";
import type { SubmissionFlags } from "@/lib/submissions/blacklist-monitor";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

// ── Users and access ─────────────────────────────────────────────────────────

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Stored lower-cased: sign-in and "add member by email" match on it.
    email: text("email").notNull(),
    name: text("name"),
    // Null for users who only sign in through GitHub/OIDC or who were invited by email.
    passwordHash: text("password_hash"),
    isStaff: boolean("is_staff").notNull().default(false),
    // Set by staff: a disabled user cannot sign in and every session of theirs ends at once.
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    // Created by the demo seed: staff can delete the demo in one action (server/demo/).
    isDemo: boolean("is_demo").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);
export type User = InferSelectModel<typeof users>;
export type NewUser = InferInsertModel<typeof users>;

/**
 * One row per sign-in. The session cookie carries the row's id; a request is signed in only while
 * the row is not revoked (sign-out, password change, user disabled, "sign out everywhere"). The row
 * is read in the same query as the user on every request, so revocation takes effect at once.
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("user_sessions_user_idx").on(t.userId)],
);
export type UserSession = InferSelectModel<typeof userSessions>;

/**
 * Failed sign-ins by throttle key (`account:<email>` or `ip:<address>`), shared by every instance on
 * PostgreSQL: after a few failures a key is blocked with growing backoff until `blockedUntil`.
 */
export const signInThrottle = pgTable("sign_in_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});
export type SignInThrottle = InferSelectModel<typeof signInThrottle>;

export const paperRole = pgEnum("paper_role", PAPER_ROLES);
export type { PaperRole };

export const papers = pgTable("papers", {
  // The PaperBench paper id, a slug (`pinn`, `all-in-one`).
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  paperMarkdown: text("paper_markdown").notNull().default(""),
  addendum: text("addendum").notNull().default(""),
  judgeAddendum: text("judge_addendum").notNull().default(""),
  blacklist: text("blacklist")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
  // Synthetic data from the demo seed: shown with a "demo" badge, deleted with the demo.
  isDemo: boolean("is_demo").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
export type Paper = InferSelectModel<typeof papers>;
export type NewPaper = InferInsertModel<typeof papers>;

export const paperMembers = pgTable(
  "paper_members",
  {
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: paperRole("role").notNull(),
    addedBy: uuid("added_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.paperId, t.userId] }), index("paper_members_user_idx").on(t.userId)],
);
export type PaperMember = InferSelectModel<typeof paperMembers>;

// ── Rubrics ──────────────────────────────────────────────────────────────────

/** Where a rubric stands in review; a change after sign-off returns it to draft. */
export const rubricStatus = pgEnum("rubric_status", ["draft", "in_review", "signed_off"]);
export type RubricStatus = (typeof rubricStatus.enumValues)[number];

export const rubrics = pgTable(
  "rubrics",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    // Bumped by every operation; clients send the revision their change was based on.
    revision: integer("revision").notNull().default(0),
    status: rubricStatus("status").notNull().default("draft"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // One rubric per paper (PaperBench has exactly one rubric.json per paper).
  (t) => [uniqueIndex("rubrics_paper_key").on(t.paperId)],
);
export type Rubric = InferSelectModel<typeof rubrics>;

export const rubricNodes = pgTable(
  "rubric_nodes",
  {
    // Internal key: stable across edits, unique even where PaperBench ids repeat. Unique within its
    // rubric (the primary key is the pair): a create never learns that another paper has a key.
    key: uuid("key").notNull(),
    rubricId: uuid("rubric_id")
      .notNull()
      .references(() => rubrics.id, { onDelete: "cascade" }),
    parentKey: uuid("parent_key"),
    // Fractional index (`fractional-indexing`) ordering a node among its siblings. The migration
    // declares it COLLATE "C": the keys compare byte-wise, not by the locale.
    position: text("position").notNull(),
    // The PaperBench `id`, kept as data: any string, may repeat in real rubrics.
    nodeId: text("node_id").notNull(),
    requirements: text("requirements").notNull(),
    weight: doublePrecision("weight").notNull(),
    taskCategory: text("task_category"),
    finegrainedTaskCategory: text("finegrained_task_category"),
    // Soft delete: set to the revision that deleted the subtree, so it can be restored.
    deletedRevision: integer("deleted_revision"),
  },
  (t) => [
    primaryKey({ columns: [t.rubricId, t.key] }),
    index("rubric_nodes_tree_idx").on(t.rubricId, t.parentKey, t.position),
  ],
);
export type RubricNodeRow = InferSelectModel<typeof rubricNodes>;
export type NewRubricNodeRow = InferInsertModel<typeof rubricNodes>;

export const rubricOperations = pgTable(
  "rubric_operations",
  {
    rubricId: uuid("rubric_id")
      .notNull()
      .references(() => rubrics.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    // Client-chosen id, so a retried request is applied once.
    clientOpId: text("client_op_id"),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.rubricId, t.revision] }),
    // A retried request finds the operation it already applied.
    uniqueIndex("rubric_operations_client_op_key").on(t.rubricId, t.clientOpId),
  ],
);
export type RubricOperationRow = InferSelectModel<typeof rubricOperations>;

/**
 * Lint warnings dismissed on a rubric, with why (`lib/rubric/lint-dismissals.ts`). Written only by
 * the `dismiss` and `undismiss` operations, so the operation log holds each one with its author.
 */
export const rubricLintDismissals = pgTable(
  "rubric_lint_dismissals",
  {
    rubricId: uuid("rubric_id")
      .notNull()
      .references(() => rubrics.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    // The node's key, or "" for the whole rule (a primary key column cannot be null). No foreign
    // key: a dismissal of a deleted node comes back with the node when it is restored.
    nodeKey: text("node_key").notNull(),
    reason: text("reason").notNull(),
    revision: integer("revision").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.rubricId, t.code, t.nodeKey] })],
);

export const rubricVersions = pgTable(
  "rubric_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    rubricId: uuid("rubric_id")
      .notNull()
      .references(() => rubrics.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    revision: integer("revision").notNull(),
    // The whole tree in PaperBench shape, so a version never depends on replaying the log.
    snapshot: jsonb("snapshot").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("rubric_versions_rubric_idx").on(t.rubricId, t.revision)],
);
export type RubricVersion = InferSelectModel<typeof rubricVersions>;

/** Every change of a rubric's review status, kept for the sign-off history. */
export const rubricReviewEvents = pgTable(
  "rubric_review_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    rubricId: uuid("rubric_id")
      .notNull()
      .references(() => rubrics.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    status: rubricStatus("status").notNull(),
    // Null when the studio itself changed the status (a change after sign-off).
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    // The named version a sign-off created.
    versionId: uuid("version_id").references(() => rubricVersions.id, { onDelete: "set null" }),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [index("rubric_review_events_rubric_idx").on(t.rubricId, t.createdAt)],
);
export type RubricReviewEvent = InferSelectModel<typeof rubricReviewEvents>;

// ── Comments ─────────────────────────────────────────────────────────────────

/**
 * A discussion on one rubric node. Threads follow the node's key (stable across edits and moves);
 * `node_id` keeps the PaperBench id it had, so a thread stays readable after a re-import.
 */
export const rubricCommentThreads = pgTable(
  "rubric_comment_threads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    rubricId: uuid("rubric_id")
      .notNull()
      .references(() => rubrics.id, { onDelete: "cascade" }),
    nodeKey: uuid("node_key").notNull(),
    nodeId: text("node_id").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolvedBy: uuid("resolved_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("rubric_comment_threads_rubric_idx").on(t.rubricId, t.nodeKey)],
);
export type RubricCommentThread = InferSelectModel<typeof rubricCommentThreads>;

export const rubricComments = pgTable(
  "rubric_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => rubricCommentThreads.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    // The paper members the body @mentions (user ids), resolved when the comment was written.
    mentions: jsonb("mentions")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [index("rubric_comments_thread_idx").on(t.threadId, t.createdAt)],
);
export type RubricComment = InferSelectModel<typeof rubricComments>;

// ── Grading ──────────────────────────────────────────────────────────────────

/** An agent under evaluation (a model in a scaffold); the leaderboard groups runs by agent. */
export const agents = pgTable(
  "agents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    model: text("model"),
    scaffold: text("scaffold"),
    notes: text("notes").notNull().default(""),
    // A made-up agent of the demo seed: its runs are synthetic, the leaderboard marks them "demo".
    isDemo: boolean("is_demo").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("agents_name_key").on(t.name)],
);
export type Agent = InferSelectModel<typeof agents>;

/** PaperBench's two variants: the full task, or Code-Dev (only `Code Development` leaves). */
export const submissionVariant = pgEnum("submission_variant", VARIANTS);
export type SubmissionVariant = Variant;

/** One run of an agent on a paper: what it submitted (the repository files, its reproduce.log). */
export const submissions = pgTable(
  "submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    // 1-based index of the run among this agent's runs on this paper and variant.
    runIndex: integer("run_index").notNull(),
    variant: submissionVariant("variant").notNull().default("full"),
    // The submitted archive, when one was uploaded: its name, what was kept and what was skipped.
    archiveName: text("archive_name"),
    archiveFileCount: integer("archive_file_count").notNull().default(0),
    archiveBytes: bigint("archive_bytes", { mode: "number" }).notNull().default(0),
    archiveNotes: jsonb("archive_notes")
      .$type<{ path: string; reason: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    reproduceLog: text("reproduce_log"),
    // The repository in the blob store (sha-256 of the archive as uploaded), for reproduction.
    archiveSha256: text("archive_sha256").references(() => blobs.sha256),
    archiveExpandedBytes: bigint("archive_expanded_bytes", { mode: "number" }),
    // The evaluation this run belongs to (its run index is the evaluation's run), if any.
    evaluationId: uuid("evaluation_id").references((): AnyPgColumn => evaluations.id, { onDelete: "set null" }),
    // What PaperBench's grade.json said of an ingested run (its reproduction's metadata, whether
    // the judge ran), and the executed archive it kept, in the blob store.
    importedResult: jsonb("imported_result").$type<ImportedRunResult>(),
    executedArchiveSha256: text("executed_archive_sha256").references(() => blobs.sha256),
    // What the monitors found in the agent's log (blacklisted sites); null when no log was scanned.
    flags: jsonb("flags").$type<SubmissionFlags>(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("submissions_run_key").on(t.paperId, t.agentId, t.variant, t.runIndex),
    index("submissions_agent_idx").on(t.agentId),
    index("submissions_evaluation_idx").on(t.evaluationId),
  ],
);
export type Submission = InferSelectModel<typeof submissions>;

/** A file of a submitted repository, for the review page's file browser. Binaries keep no content. */
export const submissionFiles = pgTable(
  "submission_files",
  {
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    size: integer("size").notNull(),
    // Null when the file was not kept (binary, too large): `skipped` says why.
    content: text("content"),
    skipped: text("skipped"),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.path] })],
);
export type SubmissionFile = InferSelectModel<typeof submissionFiles>;

export const gradingKind = pgEnum("grading_kind", ["judge", "human"]);
export type GradingKind = (typeof gradingKind.enumValues)[number];

/** One grading of a submission, against a pinned rubric version (never the live tree). */
export const gradings = pgTable(
  "gradings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    rubricVersionId: uuid("rubric_version_id")
      .notNull()
      .references(() => rubricVersions.id, { onDelete: "cascade" }),
    // Which view of the pinned version was graded: the full rubric or its Code-Dev variant.
    rubricView: submissionVariant("rubric_view").notNull().default("full"),
    // sha-256 of the graded rubric's structure and texts: a later file of the same tree pins the
    // same version instead of a new one.
    rubricFingerprint: text("rubric_fingerprint").notNull(),
    kind: gradingKind("kind").notNull(),
    judgeType: text("judge_type"),
    judgeModel: text("judge_model"),
    gradedAt: timestamp("graded_at", { withTimezone: true }),
    tokenUsage: jsonb("token_usage"),
    // The root score as the imported file had it, and the effective root score now (overrides
    // applied), kept up to date in the transaction of every override for the leaderboard.
    importedScore: doublePrecision("imported_score"),
    score: doublePrecision("score").notNull(),
    // Where the grading came from: file name, format, sha-256, the wrapper's other fields.
    source: jsonb("source").$type<GradingSource>().notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    // When a human review covered every leaf (each has a review mark, see grading_reviews), else
    // null: such a grading counts as a human grading (JudgeEval, the leaderboard's "reviewed").
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    // A judge-lab grading (comparing judge configurations, migration 0017): never counted on the
    // leaderboard, in an evaluation or as JudgeEval's judge side.
    isLab: boolean("is_lab").notNull().default(false),
    // How it was made (migration 0021, `lib/evaluations/provenance.ts`): judge, mode, configuration,
    // prompts' source, the evaluation's policies. Null only for a row written by code older than it.
    provenance: jsonb("provenance").$type<GradingProvenance>(),
    // Graded by a placeholder judge (Dummy, Random): members only, never in a public figure.
    judgePlaceholder: boolean("judge_placeholder").notNull().default(false),
  },
  (t) => [
    index("gradings_submission_idx").on(t.submissionId, t.createdAt),
    index("gradings_rubric_version_idx").on(t.rubricVersionId),
    index("gradings_rubric_fingerprint_idx").on(t.rubricFingerprint),
  ],
);
export type Grading = InferSelectModel<typeof gradings>;

export interface GradingSource {
  /** `graded_tree` / `judge_output`: an imported file; `seed`: the demo data; `judge_run`: the studio's own judge. */
  format: "graded_tree" | "judge_output" | "seed" | "judge_run";
  fileName: string | null;
  sha256: string | null;
  bytes: number | null;
  /** A judge output's wrapper (every field but the tree, key order kept), for a faithful export. */
  judgeOutput?: JudgeOutputMeta | null;
  /** The file wrote `finegrained_task_category` on its nodes (PaperBench's graded trees do not). */
  finegrained?: boolean;
  /** The graded file's warnings at import (score mismatches, unknown keys), as `path: message`. */
  warnings?: string[];
}

export const verdictSource = pgEnum("verdict_source", ["judge", "human", "import"]);
export type VerdictSource = (typeof verdictSource.enumValues)[number];

/** The verdict on one leaf of the pinned rubric version. */
export const gradingVerdicts = pgTable(
  "grading_verdicts",
  {
    gradingId: uuid("grading_id")
      .notNull()
      .references(() => gradings.id, { onDelete: "cascade" }),
    // The leaf's key in the pinned version's snapshot, and its PaperBench id (may repeat).
    nodeKey: uuid("node_key").notNull(),
    nodeId: text("node_id").notNull(),
    score: doublePrecision("score").notNull(),
    valid: boolean("valid").notNull(),
    explanation: text("explanation").notNull().default(""),
    source: verdictSource("source").notNull(),
    judgeMetadata: jsonb("judge_metadata"),
    // How the imported file wrote fields PaperBench reads loosely (`valid_score: 1.0`), for export.
    fileDetail: jsonb("file_detail").$type<{ validScoreNumber?: number }>(),
    // The rubric version the verdict was made against: the grading's pin when it was stored, an
    // older one for a verdict a re-grade after a rubric change kept (migration 0016).
    rubricVersionId: uuid("rubric_version_id")
      .notNull()
      .references(() => rubricVersions.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.gradingId, t.nodeKey] })],
);
export type GradingVerdict = InferSelectModel<typeof gradingVerdicts>;

/**
 * A human override of a leaf's score. Append-only: the effective score of a leaf is its latest
 * override, else the verdict.
 */
export const gradingOverrides = pgTable(
  "grading_overrides",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Order of appending: several overrides of one leaf may share a transaction's created_at.
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    gradingId: uuid("grading_id")
      .notNull()
      .references(() => gradings.id, { onDelete: "cascade" }),
    nodeKey: uuid("node_key").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    oldScore: doublePrecision("old_score").notNull(),
    newScore: doublePrecision("new_score").notNull(),
    reason: text("reason").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("grading_overrides_leaf_idx").on(t.gradingId, t.nodeKey, t.seq),
    foreignKey({
      name: "grading_overrides_verdict_fk",
      columns: [t.gradingId, t.nodeKey],
      foreignColumns: [gradingVerdicts.gradingId, gradingVerdicts.nodeKey],
    }).onDelete("cascade"),
  ],
);
export type GradingOverride = InferSelectModel<typeof gradingOverrides>;

// ── Grading review ───────────────────────────────────────────────────────────

/**
 * A grading, or subtrees of it, assigned to a grader (a grader of the paper, or staff) by staff.
 * One assignment per grader and grading; assigning again replaces it. `blind`: the grader sees a
 * leaf's verdict only once they have committed a score on it (the server never sends it before).
 */
export const gradingAssignments = pgTable(
  "grading_assignments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gradingId: uuid("grading_id")
      .notNull()
      .references(() => gradings.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Node keys of the pinned version (in the graded view) whose subtrees are assigned; null: all of it.
    nodeKeys: jsonb("node_keys").$type<string[] | null>(),
    blind: boolean("blind").notNull().default(false),
    assignedBy: uuid("assigned_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("grading_assignments_grader_key").on(t.gradingId, t.userId),
    index("grading_assignments_user_idx").on(t.userId),
  ],
);
export type GradingAssignment = InferSelectModel<typeof gradingAssignments>;

/**
 * A review mark: someone committed a score on a leaf, confirming the score they saw or overriding
 * it (`override_id`). Append-only. A leaf is reviewed once it has a mark; progress, time spent per
 * grader and "next unreviewed" are read from these rows.
 */
export const gradingReviews = pgTable(
  "grading_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    gradingId: uuid("grading_id")
      .notNull()
      .references(() => gradings.id, { onDelete: "cascade" }),
    nodeKey: uuid("node_key").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    // The score committed.
    score: doublePrecision("score").notNull(),
    // The override this commit appended (the score differed from the effective one), else null.
    overrideId: uuid("override_id").references(() => gradingOverrides.id, { onDelete: "set null" }),
    // Committed under a blind assignment, before the verdict was shown.
    blind: boolean("blind").notNull().default(false),
    // Time the grader spent on the leaf before committing.
    timeSpentMs: integer("time_spent_ms").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("grading_reviews_leaf_idx").on(t.gradingId, t.nodeKey, t.seq),
    index("grading_reviews_user_idx").on(t.gradingId, t.userId),
    foreignKey({
      name: "grading_reviews_verdict_fk",
      columns: [t.gradingId, t.nodeKey],
      foreignColumns: [gradingVerdicts.gradingId, gradingVerdicts.nodeKey],
    }).onDelete("cascade"),
  ],
);
export type GradingReview = InferSelectModel<typeof gradingReviews>;

/**
 * A reviewer's "unsure" flag on a leaf: they skipped it with a note instead of scoring it. The leaf
 * stays unreviewed (no review mark), flagged, until the reviewer or staff clear the flag. One per
 * reviewer and leaf; it follows its verdict like the review marks do.
 */
export const gradingUnsureFlags = pgTable(
  "grading_unsure_flags",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gradingId: uuid("grading_id")
      .notNull()
      .references(() => gradings.id, { onDelete: "cascade" }),
    nodeKey: uuid("node_key").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    note: text("note").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("grading_unsure_flags_leaf_user_key").on(t.gradingId, t.nodeKey, t.userId),
    foreignKey({
      name: "grading_unsure_flags_verdict_fk",
      columns: [t.gradingId, t.nodeKey],
      foreignColumns: [gradingVerdicts.gradingId, gradingVerdicts.nodeKey],
    }).onDelete("cascade"),
  ],
);
export type GradingUnsureFlag = InferSelectModel<typeof gradingUnsureFlags>;

// ── Notifications ────────────────────────────────────────────────────────────

export const notificationKind = pgEnum("notification_kind", NOTIFICATION_KINDS);
export type { NotificationKind };

/**
 * What reaches a person outside the editor (the header's inbox): written by the service that did
 * the action, in its transaction. `text` is a short snapshot (a comment's opening words, a
 * reason) so the inbox reads without the thing it points at; the link is built from the paper and
 * the target (a rubric node, a grading). A notification is listed only while its recipient may
 * still see its paper (and, for a grader, its grading).
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: notificationKind("kind").notNull(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    nodeKey: uuid("node_key"),
    gradingId: uuid("grading_id").references(() => gradings.id, { onDelete: "cascade" }),
    text: text("text").notNull().default(""),
    createdAt: createdAt(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [index("notifications_recipient_idx").on(t.recipientId, t.createdAt)],
);
export type Notification = InferSelectModel<typeof notifications>;

// ── Reproduction: blobs, tokens, runners, jobs ──────────────────────────────

/**
 * A paper's reproduction settings (staff): how long reproduce.sh may run, how many GPUs a job
 * needs, whether it may reach the network, and the names of the secrets it gets. One row per paper
 * that has settings; a paper without one uses the defaults (`lib/jobs/paper-settings.ts`).
 */
export const paperRunSettings = pgTable("paper_run_settings", {
  paperId: text("paper_id")
    .primaryKey()
    .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
  timeoutS: integer("timeout_s").notNull(),
  gpus: integer("gpus").notNull(),
  network: boolean("network").notNull(),
  salvageRetryBelowS: integer("salvage_retry_below_s").notNull(),
  // Per-job limits (runner/job-storage.ts, runner/backends/job-cgroup.ts); rows from before them take the defaults.
  diskLimitMiB: integer("disk_limit_mib").notNull().default(51200),
  memoryLimitMiB: integer("memory_limit_mib").notNull().default(32768),
  processLimit: integer("process_limit").notNull().default(4096),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
export type PaperRunSettings = InferSelectModel<typeof paperRunSettings>;

/**
 * A paper's secrets for reproduce.sh (`HF_TOKEN`): the value is sealed with a key derived from
 * AUTH_SECRET (AES-256-GCM, `server/secrets/`), never answered to anyone but the runner holding a
 * job of this paper, and masked in its logs.
 */
export const paperSecrets = pgTable(
  "paper_secrets",
  {
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    name: text("name").notNull(),
    sealedValue: text("sealed_value").notNull(),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.paperId, t.name] })],
);

/** Content-addressed files (submission archives, outputs): stored once per sha-256 in the blob store. */
export const blobs = pgTable("blobs", {
  sha256: text("sha256").primaryKey(),
  bytes: bigint("bytes", { mode: "number" }).notNull(),
  createdAt: createdAt(),
});
export type Blob = InferSelectModel<typeof blobs>;

/** A personal API token (`Authorization: Bearer rst_user_…`): the user's rights, shown once, stored hashed. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // sha-256 of the token: a database leak gives no usable token.
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_tokens_hash_key").on(t.tokenHash), index("api_tokens_user_idx").on(t.userId)],
);
export type ApiToken = InferSelectModel<typeof apiTokens>;

/** A runner token (staff, at /runners): lets a machine register runners and claim jobs, nothing else. */
export const runnerTokens = pgTable(
  "runner_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    // The token the studio made for its own embedded runner (npm start): not listed for revoking.
    embedded: boolean("embedded").notNull().default(false),
  },
  (t) => [uniqueIndex("runner_tokens_hash_key").on(t.tokenHash)],
);
export type RunnerToken = InferSelectModel<typeof runnerTokens>;

/** A registered runner process: what it can run, and when it was last heard from. */
export const runners = pgTable(
  "runners",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenId: uuid("token_id")
      .notNull()
      .references(() => runnerTokens.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    capabilities: jsonb("capabilities").$type<RunnerCapabilities>().notNull(),
    registeredAt: timestamp("registered_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("runners_token_idx").on(t.tokenId)],
);
export type Runner = InferSelectModel<typeof runners>;

export const jobKind = pgEnum("job_kind", JOB_KINDS);
export const jobStatus = pgEnum("job_status", JOB_STATUSES);

/**
 * The durable job queue (`server/jobs/`): claimed with `FOR UPDATE SKIP LOCKED`, held under a lease
 * (`leaseId`, `leaseExpiresAt`) that heartbeats renew; an expired lease requeues the job, or fails
 * it after its last attempt. Anything sent under a lease that is no longer `leaseId` is refused.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: jobKind("kind").notNull(),
    status: jobStatus("status").notNull().default("queued"),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    submissionId: uuid("submission_id").references(() => submissions.id, { onDelete: "cascade" }),
    // Kind-specific input (zod-typed per kind in lib/jobs/).
    payload: jsonb("payload")
      .notNull()
      .default(sql`'{}'::jsonb`),
    gpusRequired: integer("gpus_required").notNull().default(0),
    timeoutS: integer("timeout_s").notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    leaseId: uuid("lease_id"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    runnerId: uuid("runner_id").references(() => runners.id, { onDelete: "set null" }),
    gpuIndices: integer("gpu_indices")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
    cancelRequestedBy: uuid("cancel_requested_by").references(() => users.id, { onDelete: "set null" }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    exitCode: integer("exit_code"),
    failureReason: text("failure_reason"),
    // The final attempt's result (a reproduction's metadata).
    result: jsonb("result"),
    outputsSha256: text("outputs_sha256").references(() => blobs.sha256),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("jobs_queue_idx").on(t.kind, t.status, t.createdAt),
    index("jobs_submission_idx").on(t.submissionId, t.createdAt),
    index("jobs_lease_idx").on(t.status, t.leaseExpiresAt),
  ],
);
export type Job = InferSelectModel<typeof jobs>;

/** One attempt of a job: who ran it, under which lease, how it ended (the history of retries and requeues). */
export const jobAttempts = pgTable(
  "job_attempts",
  {
    jobId: uuid("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    leaseId: uuid("lease_id").notNull(),
    runnerId: uuid("runner_id").references(() => runners.id, { onDelete: "set null" }),
    runnerName: text("runner_name"),
    gpuIndices: integer("gpu_indices")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    status: jobStatus("status").notNull().default("running"),
    exitCode: integer("exit_code"),
    reason: text("reason"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.attempt] })],
);
export type JobAttempt = InferSelectModel<typeof jobAttempts>;

/** A job's log, in the chunks the runner sent: `(job, attempt, seq)` makes a resent chunk a no-op. */
export const jobLogChunks = pgTable(
  "job_log_chunks",
  {
    jobId: uuid("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    seq: integer("seq").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.attempt, t.seq] })],
);

// ── The judge ────────────────────────────────────────────────────────────────

export const judgeKind = pgEnum("judge_kind", JUDGE_KINDS);
export const judgeMode = pgEnum("judge_mode", JUDGE_MODES);

/** A judge configuration (lib/judge/config.ts): the API key is never here, only its variable's name. */
export const judgeConfigs = pgTable(
  "judge_configs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    kind: judgeKind("kind").notNull(),
    model: text("model").notNull(),
    baseUrl: text("base_url"),
    apiKeyEnv: text("api_key_env"),
    reasoningEffort: text("reasoning_effort"),
    contextWindow: integer("context_window").notNull(),
    maxConcurrency: integer("max_concurrency").notNull(),
    requestsPerMinute: integer("requests_per_minute"),
    tokensPerMinute: integer("tokens_per_minute"),
    priceInputPerM: doublePrecision("price_input_per_m").notNull(),
    priceCachedInputPerM: doublePrecision("price_cached_input_per_m").notNull(),
    priceOutputPerM: doublePrecision("price_output_per_m").notNull(),
    mode: judgeMode("mode").notNull().default("efficient"),
    parseModel: text("parse_model"),
    // The one staff picked as the default (the start dialog preselects it).
    isDefault: boolean("is_default").notNull().default(false),
    isDemo: boolean("is_demo").notNull().default(false),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("judge_configs_name_key").on(t.name)],
);
export type JudgeConfig = InferSelectModel<typeof judgeConfigs>;

/**
 * One run of the judge on one submission: the grading it fills (kind `judge`, source `judge_run`),
 * its job (kind `judge`), the configuration as it was when started, the estimate made before, and
 * the running totals (leaves, tokens, cost) kept as verdicts arrive. Each verdict is stored as it
 * arrives (grading_verdicts), so a run interrupted resumes with the missing leaves only.
 */
export const judgeRuns = pgTable(
  "judge_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gradingId: uuid("grading_id")
      .notNull()
      .references(() => gradings.id, { onDelete: "cascade" }),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    jobId: uuid("job_id").references(() => jobs.id, { onDelete: "set null" }),
    configId: uuid("config_id").references(() => judgeConfigs.id, { onDelete: "set null" }),
    // The configuration as it was when the run started (a later edit does not change a run).
    config: jsonb("config").notNull(),
    variant: submissionVariant("variant").notNull(),
    maxDepth: integer("max_depth"),
    leavesTotal: integer("leaves_total").notNull().default(0),
    leavesDone: integer("leaves_done").notNull().default(0),
    leavesInvalid: integer("leaves_invalid").notNull().default(0),
    calls: integer("calls").notNull().default(0),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull().default(0),
    cachedInputTokens: bigint("cached_input_tokens", { mode: "number" }).notNull().default(0),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull().default(0),
    reasoningTokens: bigint("reasoning_tokens", { mode: "number" }).notNull().default(0),
    costUsd: doublePrecision("cost_usd").notNull().default(0),
    // Per model: PaperBench's token_usage ({in, out}) plus cached_in, reasoning_out, calls.
    tokenUsage: jsonb("token_usage")
      .notNull()
      .default(sql`'{}'::jsonb`),
    // What the start dialog showed: calls, tokens (input, cached, output), cost, duration.
    estimate: jsonb("estimate"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("judge_runs_grading_idx").on(t.gradingId), index("judge_runs_submission_idx").on(t.submissionId)],
);
export type JudgeRun = InferSelectModel<typeof judgeRuns>;

// ── The judge lab and calibration (migration 0017) ───────────────────────────

/**
 * The accepted versions of a paper's judge addendum (`papers.judge_addendum` holds the latest):
 * calibration appends one with the overrides it came from, never overwriting silently. The first
 * acceptance records the text it replaced as version 1.
 */
export const paperJudgeAddenda = pgTable(
  "paper_judge_addenda",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    version: integer("version").notNull(),
    text: text("text").notNull(),
    overrideIds: jsonb("override_ids")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    note: text("note").notNull().default(""),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("paper_judge_addenda_version_key").on(t.paperId, t.version)],
);
export type PaperJudgeAddendum = InferSelectModel<typeof paperJudgeAddenda>;

/** A judge lab: judge configurations run on human-labelled submissions, to compare with the humans. */
export const judgeLabs = pgTable("judge_labs", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});
export type JudgeLab = InferSelectModel<typeof judgeLabs>;

/** One run of a lab: the judge run (its grading is a lab grading), the human truth, the addendum it ran with. */
export const judgeLabRuns = pgTable(
  "judge_lab_runs",
  {
    judgeRunId: uuid("judge_run_id")
      .primaryKey()
      .references(() => judgeRuns.id, { onDelete: "cascade" }),
    labId: uuid("lab_id")
      .notNull()
      .references(() => judgeLabs.id, { onDelete: "cascade" }),
    configId: uuid("config_id").references(() => judgeConfigs.id, { onDelete: "set null" }),
    configName: text("config_name").notNull(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    // The grading the run is compared with: a human grading, or a judge grading a review covered.
    truthGradingId: uuid("truth_grading_id")
      .notNull()
      .references(() => gradings.id, { onDelete: "cascade" }),
    // The paper's judge addendum when the run started: its accepted version (null: not one) and text.
    addendumVersion: integer("addendum_version"),
    judgeAddendum: text("judge_addendum").notNull(),
  },
  (t) => [index("judge_lab_runs_lab_idx").on(t.labId), index("judge_lab_runs_paper_idx").on(t.paperId)],
);
export type JudgeLabRun = InferSelectModel<typeof judgeLabRuns>;

// ── Evaluations ──────────────────────────────────────────────────────────────

/**
 * An agent on a split, N runs of one variant: its submissions name it (`submissions.evaluation_id`,
 * run index = the evaluation's run). The policies say what counts when a cell fails, per failure
 * kind; the aggregation is the mean over runs or the best of N per paper.
 */
export const evaluations = pgTable(
  "evaluations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    // A split of PaperBench's splits/ by name, or `custom` with its own papers.
    split: text("split").notNull(),
    paperIds: jsonb("paper_ids")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    runs: integer("runs").notNull(),
    variant: submissionVariant("variant").notNull().default("full"),
    policies: jsonb("policies").$type<EvaluationPolicies>().notNull(),
    aggregation: text("aggregation").$type<Aggregation>().notNull().default("mean"),
    resourcesProvided: boolean("resources_provided").notNull().default(false),
    setup: jsonb("setup").$type<EvaluationSetup>().notNull(),
    isHuman: boolean("is_human").notNull().default(false),
    // Human review sampling: leaves drawn per grading (null: none), and the graders who get them in turn.
    reviewSampleSize: integer("review_sample_size"),
    reviewGraderIds: jsonb("review_grader_ids")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    // The judge configuration the pipeline grades with (migration 0014); null: the default one when judging starts.
    judgeConfigId: uuid("judge_config_id").references(() => judgeConfigs.id, { onDelete: "set null" }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("evaluations_agent_idx").on(t.agentId)],
);
export type Evaluation = InferSelectModel<typeof evaluations>;

/**
 * Where the pipeline has a submission of an evaluation (migration 0014): uploaded → reproducing
 * (full variant) → judging → graded → done, or failed once its policy has no attempt left
 * (`server/evaluations/pipeline/advance-cell.ts`). An ingested result has no row: it is counted as
 * imported. `attempts` counts the tries (a retry adds one); the job and judge run are the current
 * attempt's; the failure is the last one seen.
 */
export const evaluationCells = pgTable(
  "evaluation_cells",
  {
    submissionId: uuid("submission_id")
      .primaryKey()
      .references(() => submissions.id, { onDelete: "cascade" }),
    evaluationId: uuid("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    stage: text("stage").$type<PipelineStage>().notNull().default("uploaded"),
    attempts: integer("attempts").notNull().default(1),
    jobId: uuid("job_id").references(() => jobs.id, { onDelete: "set null" }),
    judgeRunId: uuid("judge_run_id").references(() => judgeRuns.id, { onDelete: "set null" }),
    failureKind: text("failure_kind").$type<FailureKind>(),
    failureReason: text("failure_reason"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("evaluation_cells_evaluation_idx").on(t.evaluationId)],
);
export type EvaluationCellRecord = InferSelectModel<typeof evaluationCells>;

/**
 * The leaves of a grading drawn for human review (`lib/evaluations/review-sampling.ts`), and the
 * grader they went to (as a blind assignment of those leaves). One sample per grading: judge–human
 * agreement is read from the review marks on these leaves.
 */
export const gradingReviewSamples = pgTable(
  "grading_review_samples",
  {
    gradingId: uuid("grading_id")
      .primaryKey()
      .references(() => gradings.id, { onDelete: "cascade" }),
    evaluationId: uuid("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    nodeKeys: jsonb("node_keys").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("grading_review_samples_evaluation_idx").on(t.evaluationId)],
);
export type GradingReviewSample = InferSelectModel<typeof gradingReviewSamples>;
