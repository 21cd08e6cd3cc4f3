import "server-only";
import { z } from "zod";
import { text } from "@/lib/text";
import type { Store } from "@/db/client";
import { listPaperRolesForUser } from "@/db/queries/leaderboard";
import type { User } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { JudgeEvalCandidate } from "@/lib/judge/eval/types";
import { getJudgeEvalCandidates, listJudgeEvalCandidates } from "@/server/judge/eval/candidates";

/**
 * Who may run JudgeEval: staff on any paper, authors on their papers. It shows the judge's
 * verdicts next to the human's with the rubric's text; graders are left out so that a blind review
 * stays blind.
 */
export const JUDGE_EVAL_ROLES = ["author"] as const;

/** The papers the user may evaluate: null for every paper (staff). */
export async function judgeEvalPaperScope(store: Store, user: User): Promise<Set<string> | null> {
  if (user.isStaff) return null;
  const roles = await listPaperRolesForUser(store.db, user.id);
  return new Set(
    [...roles].filter(([, role]) => (JUDGE_EVAL_ROLES as readonly string[]).includes(role)).map(([paperId]) => paperId),
  );
}

const paperIdSchema = text().trim().min(1).max(200);

/** `paper` query values (repeatable, or comma-separated) checked against the user's scope; 403 outside it. */
export async function judgeEvalPapers(
  store: Store,
  user: User,
  requested: readonly string[],
): Promise<string[] | null> {
  const scope = await judgeEvalPaperScope(store, user);
  const ids = [
    ...new Set(
      requested
        .flatMap((r) => r.split(","))
        .map((r) => r.trim())
        .filter(Boolean),
    ),
  ].map((id, i) => {
    const parsed = paperIdSchema.safeParse(id);
    if (!parsed.success)
      throw new AppError("bad_request", `paper[${i}]: not a paper id`, [
        { path: `paper[${i}]`, message: "not a paper id" },
      ]);
    return parsed.data;
  });
  if (scope !== null) {
    const outside = ids.find((id) => !scope.has(id));
    if (outside !== undefined)
      throw new AppError("forbidden", `JudgeEval of "${outside}" is for staff and the paper's authors`);
    if (ids.length === 0) return [...scope];
  }
  return ids.length > 0 ? ids : null;
}

export const submissionIdsSchema = z.array(z.uuid()).min(1, "choose at least one submission").max(5000);

/**
 * The candidates of the submissions chosen, once the user may evaluate every one of their papers:
 * a submission of a paper outside the user's scope is a 404, as one that does not exist.
 */
export async function judgeEvalSelection(
  store: Store,
  user: User,
  submissionIds: readonly string[],
): Promise<JudgeEvalCandidate[]> {
  const scope = await judgeEvalPaperScope(store, user);
  const candidates = await getJudgeEvalCandidates(store, submissionIds);
  if (scope !== null) {
    const i = candidates.findIndex((c) => !scope.has(c.paperId));
    if (i >= 0) {
      throw new AppError(
        "not_found",
        `Submission ${submissionIds[i]} has no human grading (or complete review) and judge grading to compare`,
        [{ path: `submissionIds[${i}]`, message: "has no pair of a human and a judge grading" }],
      );
    }
  }
  return candidates;
}

/** Every candidate of the papers given (null: all papers), for a user allowed on them. */
export async function judgeEvalCandidatesOf(
  store: Store,
  paperIds: readonly string[] | null,
): Promise<JudgeEvalCandidate[]> {
  return listJudgeEvalCandidates(store, { paperIds });
}
