import "server-only";
import type { Executor } from "@/db/client";
import { getGradingItemById } from "@/db/queries/gradings";
import { insertNotifications, listPaperAuthorIds, type NewNotification } from "@/db/queries/notifications";
import { snapshotText } from "@/lib/notifications/schemas";

/**
 * The notifications of the four actions, each written by the action's own service inside its
 * transaction (so a refused action notifies nobody); a finished review's, which needs the review's
 * scope, is written by the review feature (server/reviews/notify-review-finished.ts) with `notify`. Each answers the recipients, for the service
 * to hand to `announceNotifications` once the transaction has committed; an open inbox that misses
 * the announcement still finds the notification at its next check (every second, see stream.ts).
 * Nobody is ever notified of their own action.
 */

export type Recipients = string[];

/** Writes one notification per recipient, never to the actor; the recipients, for `announceNotifications`. */
export async function notify(
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

export { announceNotifications } from "./feed";
