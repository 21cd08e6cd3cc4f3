import "server-only";
import type { Store } from "@/db/client";
import { listOverrideScores, listVerdicts } from "@/db/queries/grading-verdicts";
import type { GradingListItem } from "@/db/queries/gradings";
import type { User } from "@/db/schema";
import { AppError } from "@/lib/errors";
import {
  compareGradings,
  type ComparableGrading,
  type ComparisonInput,
  type SubmissionComparison,
} from "@/lib/grading/compare-gradings";
import { fallbackProvenance, provenanceSummary } from "@/lib/evaluations/provenance";
import { requireFullVisibility, requireGradingAccess } from "./grading-access";
import { requireSubmissionAccess } from "@/server/access/submission-access";
import { listPaperGradings } from "./read-gradings";
import { getGradingRows } from "./pinned-grading";

function toComparable(g: GradingListItem): ComparableGrading {
  const provenance = g.provenance ?? fallbackProvenance(g);
  return {
    id: g.id,
    kind: g.kind,
    how: provenanceSummary(provenance),
    rubricVersionName: g.rubricVersionName,
    score: g.score,
    createdAt: g.createdAt.toISOString(),
  };
}

async function comparisonInput(store: Store, grading: GradingListItem): Promise<ComparisonInput> {
  return {
    rows: await getGradingRows(store.db, grading),
    verdicts: await listVerdicts(store.db, grading.id),
    overrides: await listOverrideScores(store.db, grading.id),
  };
}

/** A picked grading: the user must read it in full (every verdict), and it must be of this submission. */
async function requireComparable(
  store: Store,
  user: User,
  gradingId: string,
  submissionId: string,
): Promise<GradingListItem> {
  const grant = await requireGradingAccess(store, user, gradingId, "view");
  await requireFullVisibility(grant, "compare it");
  if (grant.grading.submissionId !== submissionId)
    throw new AppError("bad_request", "This grading is of another submission: compare two gradings of one submission");
  return grant.grading;
}

/**
 * Two gradings of one submission compared leaf by leaf (`lib/grading/compare-gradings.ts`), with
 * the submission's gradings the user may read in full to pick from. Without a pick: the first two.
 * Only who may read both gradings in full compares them (a grader whose assignment hides a verdict
 * would read it on the other side).
 */
export async function compareSubmissionGradings(
  store: Store,
  user: User,
  submissionId: string,
  pick: { a?: string; b?: string },
): Promise<SubmissionComparison> {
  const { submission, role } = await requireSubmissionAccess(store, user, submissionId, "view");
  // A grader's list keeps the gradings assigned to them; a hidden verdict hides the score (null).
  const readable = (await listPaperGradings(store, { paperId: submission.paperId, userId: user.id, role })).filter(
    (g): g is GradingListItem => g.submissionId === submission.id && g.score !== null,
  );
  const a = pick.a ? await requireComparable(store, user, pick.a, submission.id) : readable[0];
  const b = pick.b ? await requireComparable(store, user, pick.b, submission.id) : readable.find((g) => g.id !== a?.id);
  const base = { submissionId: submission.id, paperId: submission.paperId, gradings: readable.map(toComparable) };
  if (!a || !b) return { ...base, a: a ? toComparable(a) : null, b: null, result: null };
  return {
    ...base,
    a: toComparable(a),
    b: toComparable(b),
    result: compareGradings(await comparisonInput(store, a), await comparisonInput(store, b)),
  };
}
