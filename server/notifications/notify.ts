import "server-only";
import type { Executor } from "@/db/client";
import { getGradingAssignment, listCommittedLeafKeys } from "@/db/queries/grading-reviews";
import { getGradingItemById } from "@/db/queries/gradings";
import {
  hasNotificationSince,
  insertNotifications,
  listPaperAuthorIds,
  type NewNotification,
} from "@/db/queries/notifications";
import type { Grading } from "@/db/schema";
import { snapshotText } from "@/lib/notifications/schemas";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { scopeOf } from "@/server/reviews/progress";

/**
 * The notifications of the four actions, each written by the action's own service inside its
 * transaction (so a refused action notifies nobody). Each answers the recipients, for the service
 * to hand to `announceNotifications` once the transaction has committed; an open inbox that misses
 * the announcement still finds the notification at its next check (every second, see stream.ts).
 * Nobody is ever notified of their own action.
 */

type Recipients = string[];

async function notify(
  tx: Executor,
  input: Omit<NewNotification, "recipientId"> & { recipients: Iterable<string> },
): Promise<Recipients> {
  const { recipients, ...rest } = input;
  const to = [...new Set(recipients)].filter((id) => id !== input.actorId);
  await insertNotifications(
    tx,
    to.map((recipientId) => ({ ...rest, recipientId })),
  );
  return to;
}

/** The people a new comment @mentions hear of it, with its opening words; the link opens the node. */
export function notifyMentions(
  tx: Executor,
  input: { actorId: string; paperId: string; nodeKey: string; mentions: readonly string[]; body: string },
): Promise<Recipients> {
  return notify(tx, {
    kind: "mention",
    actorId: input.actorId,
    paperId: input.paperId,
    nodeKey: input.nodeKey,
    text: snapshotText(input.body),
    recipients: input.mentions,
  });
}

/** A grader assigned a grading (or subtrees of it) hears which run, how much of it, and whether blind. */
export async function notifyAssignment(
  tx: Executor,
  input: {
    actorId: string;
    gradingId: string;
    recipientId: string;
    nodeKeys: readonly string[] | null;
    blind: boolean;
  },
): Promise<Recipients> {
  const grading = await getGradingItemById(tx, input.gradingId);
  if (!grading) return [];
  const scope = input.nodeKeys
    ? `${input.nodeKeys.length} ${input.nodeKeys.length === 1 ? "subtree" : "subtrees"}`
    : "the whole grading";
  return notify(tx, {
    kind: "assignment",
    actorId: input.actorId,
    paperId: grading.paperId,
    gradingId: grading.id,
    text: `${grading.agentName}, run ${grading.runIndex} (${grading.variant}): ${scope}${input.blind ? ", blind" : ""}`,
    recipients: [input.recipientId],
  });
}

/**
 * A rubric that went back to draft (someone returned it from review, or changed it after sign-off):
 * its authors hear of it, with the reason. Staff are not members and are not told; they see the
 * review history.
 */
export async function notifyReturnedToDraft(
  tx: Executor,
  input: { actorId: string | null; paperId: string; reason: string },
): Promise<Recipients> {
  const authors = await listPaperAuthorIds(tx, input.paperId, input.actorId);
  return notify(tx, {
    kind: "returned_to_draft",
    actorId: input.actorId,
    paperId: input.paperId,
    text: snapshotText(input.reason),
    recipients: authors,
  });
}

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

export { announceNotifications } from "./feed";
