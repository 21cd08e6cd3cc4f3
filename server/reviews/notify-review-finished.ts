import "server-only";
import type { Executor } from "@/db/client";
import { getGradingAssignment, listCommittedLeafKeys } from "@/db/queries/grading-reviews";
import { hasNotificationSince } from "@/db/queries/notifications";
import type { Grading } from "@/db/schema";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { notify, type Recipients } from "@/server/notifications/notify";
import { scopeOf } from "./progress";

/**
 * A grader's commit that completes their assignment (every leaf of its scope now has their mark)
 * tells whoever assigned it, once per completion: a leaf committed again does not tell them again.
 * Commits outside an assignment (staff reviewing on their own) tell nobody.
 */
export async function notifyReviewFinished(
  tx: Executor,
  input: {
    actorId: string;
    grading: Pick<Grading, "id" | "rubricVersionId" | "rubricView">;
    paperId: string;
    nodeKey: string;
  },
): Promise<Recipients> {
  const assignment = await getGradingAssignment(tx, input.grading.id, input.actorId);
  if (!assignment?.assignedBy || assignment.assignedBy === input.actorId) return [];
  const scope = scopeOf(await getGradingRows(tx, input.grading), assignment.nodeKeys);
  if (!scope.has(input.nodeKey)) return [];
  const committed = await listCommittedLeafKeys(tx, input.grading.id, input.actorId);
  for (const key of scope) if (!committed.has(key)) return [];
  // Told already since it was (re)assigned: this commit went over a leaf of a finished review again.
  const told = {
    kind: "review_finished" as const,
    actorId: input.actorId,
    gradingId: input.grading.id,
    recipientId: assignment.assignedBy,
  };
  if (await hasNotificationSince(tx, told, assignment.updatedAt)) return [];
  return notify(tx, {
    kind: "review_finished",
    actorId: input.actorId,
    paperId: input.paperId,
    gradingId: input.grading.id,
    text: `${scope.size} ${scope.size === 1 ? "leaf" : "leaves"} reviewed${assignment.blind ? " blind" : ""}`,
    recipients: [assignment.assignedBy],
  });
}
