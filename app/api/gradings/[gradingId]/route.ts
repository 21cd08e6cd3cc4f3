import { getGradingById, getPinnedGradedTree, listEffectiveLeafScores, listGradingOverrides } from "@/db/queries/gradings";
import { requireGradingAccess } from "@/server/access/grading-access";
import { apiRoute } from "@/server/http/route";
import { hiddenReason, maskGradedTree } from "@/lib/review/visibility";

type Params = { gradingId: string };

/**
 * One grading for the review page: its run, the graded tree as the verdicts give it (pre-order
 * `keys` name its nodes), each leaf's effective score, and the override history. A grader whose
 * assignment hides verdicts (other subtrees; blind, before they commit) gets them left out.
 */
export const GET = apiRoute<Params>({}, async ({ db, user, params }) => {
  const access = await requireGradingAccess(db, user, params.gradingId, "view");
  const { grading, role } = access;
  const row = (await getGradingById(db, grading.id))!;
  const pinned = await getPinnedGradedTree(db, row);
  const leaves = await listEffectiveLeafScores(db, grading.id);
  const overrides = await listGradingOverrides(db, grading.id);
  const visibility = await access.visibility();
  if (visibility.scope || visibility.blind) {
    const shown = (key: string) => hiddenReason(key, visibility) === null;
    const all = leaves.every((l) => shown(l.nodeKey));
    return {
      grading: { ...grading, score: all ? grading.score : null },
      role,
      tree: maskGradedTree(pinned.tree, pinned.keys, visibility),
      keys: pinned.keys,
      effectiveScore: all ? pinned.scores.rootScore : null,
      leaves: leaves.filter((l) => shown(l.nodeKey)),
      overrides: overrides.filter((o) => shown(o.nodeKey)),
    };
  }
  return { grading, role, tree: pinned.tree, keys: pinned.keys, effectiveScore: pinned.scores.rootScore, leaves, overrides };
});
