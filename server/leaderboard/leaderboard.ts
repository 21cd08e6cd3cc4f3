import "server-only";
import { createHash } from "node:crypto";
import type { Executor, Store } from "@/db/client";
import {
  getLeaderboardStamp,
  listCountedGradings,
  listLeaderboardAgents,
  listLeaderboardPapers,
  type LeaderboardAgentInfo,
  type LeaderboardGradingRow,
} from "@/db/queries/leaderboard";
import { AppError } from "@/lib/errors";
import { computeLeaderboard, rankEntries, type AgentEntry } from "@/lib/grading/leaderboard";
import type { Variant } from "@/lib/grading/variant";
import { chooseDefaultSplit, resolveSplits, type SplitInfo } from "@/lib/leaderboard/splits";
import {
  AS_GRADED_BASIS,
  LEADERBOARD_VARIANTS,
  type LeaderboardAgentRow,
  type LeaderboardPaper,
  type LeaderboardView,
} from "@/lib/leaderboard/types";
import { PLACEHOLDER_LABEL, scoringMethodOf } from "@/lib/evaluations/scoring-method";
import { readDataSplits } from "@/server/papers/data-splits";
import {
  evaluationRow,
  evaluationsForBoard,
  madeOfRow,
  readEvaluationData,
  type EvaluationData,
} from "./evaluation-rows";
import { listPendingReviewGradings } from "./pending-review";

/**
 * The public leaderboard, read from the database in one aggregation-friendly query per variant
 * and kept in memory until the gradings change.
 *
 * Which grading scores a run on a paper (a submission): its latest judge grading, else (a run
 * only a human graded) its latest human grading; the score is that grading's effective root score
 * (`gradings.score`: human overrides applied). PaperBench's leaderboard ranks judge scores; a
 * reviewer's corrections count.
 *
 * Human-reviewed: a counted grading is reviewed when it is a human grading, or when a review
 * covered every one of its leaves (`gradings.reviewed_at`). An agent's row gets the badge when
 * every grading counted in it was reviewed.
 *
 * Pending review: a grading under an open blind review publishes no score (its run waits, and the
 * agent's mean uses its other complete runs; see `computeLeaderboard`), or its grader could read
 * there what they are scoring blind.
 *
 * Evaluations: an agent with an evaluation on the board's papers and variant gets its row from it,
 * its policies and aggregation applied (`evaluation-rows.ts`); the row says which ("mean of 3 runs
 * · …", "best of 3"; the others "as graded") and carries the evaluation's setup, resources
 * provided and judge–human agreement. A human's evaluation is a baseline: sorted in by its score
 * with no rank, so adding PaperBench's ML-PhD baseline shows where agents stand against it
 * without moving their ranks.
 *
 * Scores, names and paper titles only: never rubric text or judge explanations.
 *
 * Placeholder judges: a grading by Dummy or Random (`gradings.judge_placeholder`) is in no public
 * figure: the public board (`audience: "public"`, the default) is computed as if it did not exist
 * (its rows, an evaluation's cells, the graded papers, the latest time). Signed-in members get the
 * `members` board: the public's rows and ranks, and after them the placeholder judges' gradings as
 * rows of their own, unranked, marked "placeholder judge — not public".
 * Every row says how its gradings were made (`method`, `lib/evaluations/scoring-method.ts`):
 * "PaperBench method" only for a model judge in paperbench mode under PaperBench's default policies.
 *
 * Cache: the rows of a variant and each computed board stay in memory until a "stamp" of the
 * gradings changes (one cheap read: counts, latest times, the sum of scores, the last override); a
 * check in flight is shared by the requests that arrive meanwhile, and the public page and API
 * reuse a check for `LEADERBOARD_MAX_STALE_MS` (lib/leaderboard/freshness.ts).
 */

/** Who a board is for: anyone (placeholder judges' gradings left out), or signed-in members (shown, marked). */
export type LeaderboardAudience = "public" | "members";

/** What one variant's board is computed from. */
export interface VariantData {
  rows: LeaderboardGradingRow[];
  agents: Map<string, LeaderboardAgentInfo>;
  paperTitles: Map<string, string>;
  /** Papers with a grading of any variant (the studio's `all` without data splits). */
  gradedPaperIds: string[];
  /** Papers with a grading of this variant, by id, with their titles: the per-paper boards. */
  variantPapers: LeaderboardPaper[];
  latestGradingAt: string | null;
  /** Gradings under an open blind review: their scores are not published. */
  pendingReview: ReadonlySet<string>;
  /** The variant's evaluations, newest first: an agent's row may be computed from one (`evaluation-rows.ts`). */
  evaluations: EvaluationData[];
  /** `rows` by grading id. */
  gradings: ReadonlyMap<string, LeaderboardGradingRow>;
  /** The public's data only: the counted gradings left out because a placeholder judge made them (counted, never shown). */
  hiddenPlaceholder?: readonly LeaderboardGradingRow[];
  /** The members' data only: the placeholder judges' gradings as data of their own, shown as rows apart. */
  placeholderData?: VariantData;
}

/** The read data of a variant, before an audience's filter. */
interface RawVariantData extends VariantData {
  /** Papers with a grading of any variant by a judge that is not a placeholder. */
  publicGradedPaperIds: string[];
  /** The counted gradings as if no placeholder judge had graded (an older real grading counts again). */
  publicRows: LeaderboardGradingRow[];
}

async function readVariantData(db: Executor, variant: Variant): Promise<RawVariantData> {
  // Per submission of the variant, the grading that counts (see the module comment).
  const rows = await listCountedGradings(db, variant);
  const publicRows = await listCountedGradings(db, variant, { publicOnly: true });
  const [agentRows, paperRows] = await Promise.all([listLeaderboardAgents(db), listLeaderboardPapers(db)]);
  const pendingReview = await listPendingReviewGradings(db, variant);
  const evaluations = await readEvaluationData(db, variant);
  let latest = -Infinity;
  for (const r of rows) latest = Math.max(latest, r.createdMs);
  // Runs in run order, papers in id order: `computeLeaderboard` lists runs as it first sees them.
  const runOrder = (a: LeaderboardGradingRow, b: LeaderboardGradingRow) =>
    a.runIndex - b.runIndex || (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : 0);
  rows.sort(runOrder);
  publicRows.sort(runOrder);
  const agents = new Map<string, LeaderboardAgentInfo>();
  for (const a of agentRows) agents.set(a.id, a);
  const paperTitles = new Map<string, string>();
  const gradedPaperIds: string[] = [];
  const publicGradedPaperIds: string[] = [];
  for (const p of paperRows) {
    paperTitles.set(p.id, p.title);
    if (p.graded) gradedPaperIds.push(p.id);
    if (p.gradedPublic) publicGradedPaperIds.push(p.id);
  }
  const variantPapers = [...new Set(rows.map((r) => r.paperId))]
    .sort()
    .map((id) => ({ id, title: paperTitles.get(id) ?? null }));
  return {
    rows,
    agents,
    paperTitles,
    gradedPaperIds: gradedPaperIds.sort(),
    publicGradedPaperIds: publicGradedPaperIds.sort(),
    publicRows,
    variantPapers,
    latestGradingAt: Number.isFinite(latest) ? new Date(latest).toISOString() : null,
    pendingReview,
    evaluations,
    gradings: new Map(rows.map((r) => [r.gradingId, r])),
  };
}

/**
 * The public's view of a variant's data: every placeholder judge's grading gone, as if it had
 * never been made (a run's earlier real grading counts again; an evaluation's cell whose grading
 * is a placeholder's is not graded yet), and what is derived from
 * the gradings (graded papers, the latest time) derived again without them.
 */
function publicVariantData(data: RawVariantData): VariantData {
  const rows = data.publicRows;
  let latest = -Infinity;
  for (const r of rows) latest = Math.max(latest, r.createdMs);
  return {
    ...data,
    rows,
    gradedPaperIds: data.publicGradedPaperIds,
    variantPapers: [...new Set(rows.map((r) => r.paperId))]
      .sort()
      .map((id) => ({ id, title: data.paperTitles.get(id) ?? null })),
    latestGradingAt: Number.isFinite(latest) ? new Date(latest).toISOString() : null,
    evaluations: data.evaluations.map((e) => ({
      ...e,
      cells: e.cells.map((c) =>
        c.placeholder
          ? { ...c, state: "pending" as const, score: null, gradingId: null, provenance: null, placeholder: false }
          : c,
      ),
    })),
    gradings: new Map(rows.map((r) => [r.gradingId, r])),
    hiddenPlaceholder: data.rows.filter((r) => r.placeholder),
  };
}

/**
 * The members' view: the public's rows and ranks exactly, and the placeholder judges' gradings
 * as data of their own (`placeholderData`: only the runs a placeholder's grading counts for, an
 * evaluation's cells a placeholder graded), shown as rows apart, unranked and marked. Papers and
 * times count every grading.
 */
function membersVariantData(data: RawVariantData): VariantData {
  const rows = data.rows.filter((r) => r.placeholder);
  const placeholderData: VariantData = {
    ...data,
    rows,
    evaluations: data.evaluations.map((e) => ({
      ...e,
      cells: e.cells.map((c) =>
        c.gradingId !== null && !c.placeholder
          ? { ...c, state: "pending" as const, score: null, gradingId: null, provenance: null }
          : c,
      ),
    })),
    gradings: new Map(rows.map((r) => [r.gradingId, r])),
  };
  return {
    ...publicVariantData(data),
    gradedPaperIds: data.gradedPaperIds,
    variantPapers: data.variantPapers,
    latestGradingAt: data.latestGradingAt,
    hiddenPlaceholder: undefined,
    placeholderData,
  };
}

// ── The board ────────────────────────────────────────────────────────────────

/** A computed board, with its JSON body and entity tag for the API. */
interface CachedBoard {
  view: LeaderboardView;
  json?: { body: string; etag: string };
}

interface CacheEntry {
  stamp: string;
  data: Promise<RawVariantData>;
  /** The public's and the members' views of `data`, each made once. */
  publicData?: VariantData;
  membersData?: VariantData;
  /** Boards computed from `data`, by split name and papers (and paper, for a per-paper board). */
  boards: Map<string, CachedBoard>;
}

interface DbCache {
  variants: Map<Variant, CacheEntry>;
  /** The stamp read in flight: requests that arrive meanwhile share it rather than read their own. */
  stamp: Promise<string> | null;
  /** The last stamp read, and when that read started (`performance.now()`). */
  checked: { stamp: string; at: number } | null;
}

// Per database handle. Kept on globalThis: Next.js may load this module once per route bundle,
// and every copy should share one cache.
const globalCache = globalThis as unknown as { __rubricStudioLeaderboard?: WeakMap<object, DbCache> };

function sharedStamp(db: Executor, cache: DbCache, maxStaleMs: number): Promise<string> {
  const now = performance.now();
  if (maxStaleMs > 0 && cache.checked && now - cache.checked.at <= maxStaleMs)
    return Promise.resolve(cache.checked.stamp);
  if (!cache.stamp) {
    cache.stamp = getLeaderboardStamp(db)
      .then((stamp) => {
        cache.checked = { stamp, at: now };
        return stamp;
      })
      .finally(() => {
        cache.stamp = null;
      });
  }
  return cache.stamp;
}

async function variantData(
  db: Executor,
  variant: Variant,
  maxStaleMs: number,
  audience: LeaderboardAudience,
): Promise<{ entry: CacheEntry; data: VariantData }> {
  const perDb = (globalCache.__rubricStudioLeaderboard ??= new WeakMap());
  let cache = perDb.get(db);
  if (!cache) perDb.set(db, (cache = { variants: new Map(), stamp: null, checked: null }));
  const stamp = await sharedStamp(db, cache, maxStaleMs);
  const variants = cache.variants;
  let entry = variants.get(variant);
  if (!entry || entry.stamp !== stamp) {
    // Concurrent requests that see the same new stamp share one read.
    const fresh: CacheEntry = { stamp, data: readVariantData(db, variant), boards: new Map() };
    variants.set(variant, fresh);
    fresh.data.catch(() => {
      if (variants.get(variant) === fresh) variants.delete(variant);
    });
    entry = fresh;
  }
  const raw = await entry.data;
  if (audience === "members") {
    entry.membersData ??= membersVariantData(raw);
    return { entry, data: entry.membersData };
  }
  entry.publicData ??= publicVariantData(raw);
  return { entry, data: entry.publicData };
}

export interface LeaderboardQuery {
  /** A split name; default: the split with the most complete runs (`chooseDefaultSplit`). */
  split?: string;
  variant: Variant;
  /** The per-paper board of this paper (every agent's runs on it), opened from `split`. */
  paper?: string;
  /** The PaperBench data's splits; default read from `PAPERBENCH_DATA_DIR`. */
  dataSplits?: Record<string, string[]>;
  /**
   * Reuse the check for changes made by a request that started at most this long ago (default 0:
   * check every time). The public page and API allow `LEADERBOARD_MAX_STALE_MS`: under load, one
   * check serves every request of that moment, and a change shows within that time.
   */
  maxStaleMs?: number;
  /**
   * `public` (default): placeholder judges' gradings left out of every figure. `members`: a
   * signed-in member's board, with them shown, unranked and marked.
   */
  audience?: LeaderboardAudience;
}

/**
 * The leaderboard of a split and variant, for anyone: per agent the mean over complete runs ±
 * standard error, the runs left out and why, the per-paper breakdown, judge models and whether a
 * human reviewed every counted grading; after the ranked agents, those without a complete run
 * with their coverage. With `paper`, the per-paper board: the board of that one paper. 400 for a
 * split or paper that does not exist.
 */
export async function getLeaderboard(store: Store, query: LeaderboardQuery): Promise<LeaderboardView> {
  return (await loadBoard(store.db, query)).board.view;
}

/**
 * The same board as a JSON body, serialized once per change of the gradings, with an entity tag
 * (the API answers 304 to a client that has it).
 */
export async function getLeaderboardJson(
  store: Store,
  query: LeaderboardQuery,
): Promise<{ body: string; etag: string }> {
  const { board, stamp } = await loadBoard(store.db, query);
  board.json ??= {
    body: JSON.stringify(board.view),
    etag: `"lb-${createHash("sha1")
      .update(
        `${stamp}|${query.audience ?? "public"}|${board.view.split}|${board.view.variant}|${board.view.paper?.id ?? ""}|${board.view.papers.map((p) => p.id).join(",")}`,
      )
      .digest("base64url")}"`,
  };
  return board.json;
}

/** The board of a query with the data it was computed from (the drill-down reads both). */
export async function loadBoard(
  db: Executor,
  query: LeaderboardQuery,
): Promise<{ board: CachedBoard; data: VariantData; stamp: string }> {
  const audience = query.audience ?? "public";
  const { entry, data } = await variantData(db, query.variant, query.maxStaleMs ?? 0, audience);
  const splits = resolveSplits(query.dataSplits ?? readDataSplits(), data.gradedPaperIds);
  const cached = (key: string, build: () => LeaderboardView): CachedBoard => {
    const audienceKey = `${audience}:${key}`;
    let board = entry.boards.get(audienceKey);
    if (!board) entry.boards.set(audienceKey, (board = { view: build() }));
    return board;
  };
  const splitBoard = (split: SplitInfo) =>
    cached(`${split.name}:${split.paperIds.join(",")}`, () => buildView(data, split, null, splits, query.variant));
  let split: SplitInfo | undefined;
  if (query.split === undefined) {
    const name = chooseDefaultSplit(
      splits.map((s) => {
        // Placeholder judges' rows (members only) choose nothing: members get the public's default.
        const agents = splitBoard(s).view.agents.filter((a) => a.method.kind !== "placeholder");
        return { name: s.name, completeRuns: agents.reduce((n, a) => n + a.nRuns, 0), agents: agents.length };
      }),
    );
    // Nothing graded: an empty board of the studio's `all`.
    split = splits.find((s) => s.name === name) ?? { name: "all", paperIds: [], source: "studio" };
  } else {
    split = splits.find((s) => s.name === query.split);
    if (!split) {
      const known = splits.map((s) => s.name).join(", ") || "none yet";
      throw new AppError("bad_request", `split: no split named "${query.split}" (splits: ${known})`, [
        { path: "split", message: `unknown split; one of: ${known}` },
      ]);
    }
  }
  const result = (board: CachedBoard) => ({ board, data, stamp: entry.stamp });
  if (query.paper === undefined) return result(splitBoard(split));
  const paperId = query.paper;
  // A paper of the studio or of a split: its board may be empty (nobody graded it in the variant).
  if (!data.paperTitles.has(paperId) && !splits.some((s) => s.paperIds.includes(paperId))) {
    throw new AppError("bad_request", `paper: no paper "${paperId}" in the studio or its splits`, [
      { path: "paper", message: "unknown paper" },
    ]);
  }
  const from = split;
  const paper = { id: paperId, title: data.paperTitles.get(paperId) ?? null };
  return result(
    cached(`paper:${paperId}:${from.name}`, () =>
      buildView(data, { name: from.name, paperIds: [paperId], source: from.source }, paper, splits, query.variant),
    ),
  );
}

/**
 * The board of `split`'s papers; a per-paper board is the board of a one-paper split (`paper`).
 * Agents with an evaluation on these papers get its row (`evaluation-rows.ts`), the others the
 * gradings as they are; a human's row is a baseline, sorted in without a rank.
 */
function buildView(
  data: VariantData,
  split: SplitInfo,
  paper: LeaderboardPaper | null,
  splits: SplitInfo[],
  variant: Variant,
): LeaderboardView {
  const view = buildOneView(data, split, paper, splits, variant);
  if (!data.placeholderData) return view;
  // Members: the placeholder judges' rows after the public's, never ranked (their mark says so).
  const apart = buildOneView(data.placeholderData, split, paper, splits, variant).agents.filter(
    (a) => a.countedGradings > 0 || a.coverage.papers > 0,
  );
  return {
    ...view,
    agents: [
      ...view.agents,
      ...apart.map((a) => ({ ...a, rank: null, method: { kind: "placeholder" as const, label: PLACEHOLDER_LABEL } })),
    ],
  };
}

function buildOneView(
  data: VariantData,
  split: SplitInfo,
  paper: LeaderboardPaper | null,
  splits: SplitInfo[],
  variant: Variant,
): LeaderboardView {
  const fromEvaluation = evaluationsForBoard(data.evaluations, [...new Set(split.paperIds)]);
  const board = computeLeaderboard(
    data.rows
      .filter((r) => !fromEvaluation.has(r.agentId))
      .map((r) => ({
        agentId: r.agentId,
        runId: String(r.runIndex),
        paperId: r.paperId,
        rootScore: r.score,
        humanReviewed: r.reviewed,
        judgeModel: r.judgeModel,
        pendingReview: data.pendingReview.has(r.gradingId),
      })),
    { name: split.name, paperIds: split.paperIds },
  );
  const graded = new Set(data.variantPapers.map((p) => p.id));
  const boardPapers = new Set(board.paperIds);
  const agents = board.agents.map((entry: AgentEntry): LeaderboardAgentRow => {
    const info = data.agents.get(entry.agentId);
    const counted = entry.nRuns * board.paperIds.length;
    return {
      rank: entry.rank,
      agentId: entry.agentId,
      name: info?.name ?? entry.agentId,
      model: info?.model ?? null,
      scaffold: info?.scaffold ?? null,
      isDemo: info?.isDemo ?? false,
      mean: entry.mean,
      stdErr: entry.stdErr,
      nRuns: entry.nRuns,
      runs: entry.runs.map((r) => ({ run: Number(r.runId), score: r.score })).sort((a, b) => a.run - b.run),
      excludedRuns: entry.excludedRuns
        .map((x) => ({
          run: Number(x.runId),
          reason: x.reason,
          missingPapers: x.missingPapers,
          pendingPapers: x.pendingPapers,
          message: x.message,
        }))
        .sort((a, b) => a.run - b.run),
      perPaper: entry.perPaper.map((p) => ({
        paperId: p.paperId,
        mean: p.mean,
        stdErr: p.stdErr,
        nRuns: p.nRuns,
        pendingRuns: p.pendingRuns,
      })),
      judgeModels: entry.judgeModels,
      countedGradings: counted,
      reviewedGradings: entry.humanReviewedPapers,
      humanReviewed: counted > 0 && entry.humanReviewedPapers === counted,
      coverage: { papers: entry.coverage.papers, of: board.paperIds.length, mean: entry.coverage.mean },
      basis: AS_GRADED_BASIS,
      method: scoringMethodOf(
        data.rows.filter((r) => r.agentId === entry.agentId && boardPapers.has(r.paperId)).map(madeOfRow),
      ),
      isHuman: false,
      agreement: null,
    };
  });
  for (const [agentId, evaluation] of fromEvaluation) {
    const info = data.agents.get(agentId);
    agents.push({
      rank: null,
      agentId,
      name: info?.name ?? agentId,
      model: info?.model ?? null,
      scaffold: info?.scaffold ?? null,
      isDemo: info?.isDemo ?? false,
      ...evaluationRow(evaluation, board.paperIds, data),
    });
  }
  // A placeholder judge's row (members only) is shown beside the ranked ones, never among them.
  rankEntries(agents, (a) => a.isHuman || a.method.kind === "placeholder");
  const excludedRuns = agents.flatMap((a) => a.excludedRuns);
  return {
    split: split.name,
    variant,
    paper,
    splits: splits.map((s) => ({
      name: s.name,
      source: s.source,
      paperCount: s.paperIds.length,
      gradedPaperCount: s.paperIds.filter((p) => graded.has(p)).length,
    })),
    variants: LEADERBOARD_VARIANTS,
    papers: board.paperIds.map((id) => ({ id, title: data.paperTitles.get(id) ?? null })),
    gradedPapers: data.variantPapers,
    agents,
    excluded: {
      runs: excludedRuns.length,
      incomplete: excludedRuns.filter((x) => x.reason === "incomplete").length,
      duplicatePapers: excludedRuns.filter((x) => x.reason === "duplicate_papers").length,
      pendingReview: excludedRuns.filter((x) => x.reason === "pending_review").length,
    },
    latestGradingAt: data.latestGradingAt,
    placeholderHidden: (data.hiddenPlaceholder ?? []).filter((r) => boardPapers.has(r.paperId)).length,
  };
}
