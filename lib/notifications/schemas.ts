import { z } from "zod";
import type { NotificationKind } from "./kinds";

/** `POST /api/notifications/read`: these notifications (the caller's own), or all of them. */
export const markReadSchema = z
  .strictObject({
    ids: z
      .array(z.uuid({ error: "must be a notification id (uuid)" }))
      .min(1, "must name at least one notification")
      .max(200)
      .optional(),
    all: z.literal(true, { error: "must be true" }).optional(),
  })
  .refine((b) => (b.ids === undefined) !== (b.all === undefined), { error: "send either ids or all: true" });
export type MarkReadRequest = z.infer<typeof markReadSchema>;

/** How many notifications `GET /api/notifications` lists (newest first). */
export const NOTIFICATION_PAGE = 30;

/** One notification as its recipient's inbox shows it. */
export interface NotificationItem {
  id: string;
  kind: NotificationKind;
  /** Who did it (their name, else email); null when that account is gone. */
  actor: string | null;
  paperId: string;
  paperTitle: string;
  nodeKey: string | null;
  gradingId: string | null;
  /** The snapshot taken when it happened: a comment's opening words, a reason. */
  text: string;
  createdAt: string;
  readAt: string | null;
}

export interface NotificationList {
  items: NotificationItem[];
  unread: number;
}

/** What the inbox's live stream says whenever the unread count or the newest notification changes. */
export interface UnreadState {
  unread: number;
  /** The newest notification's id: a new one with the count unchanged (one read meanwhile) still shows. */
  latest: string | null;
}

/** Where a notification takes its recipient: the node in the editor, or the grading's review page. */
export function notificationHref(n: Pick<NotificationItem, "kind" | "paperId" | "nodeKey" | "gradingId">): string {
  if (n.gradingId) return `/gradings/${encodeURIComponent(n.gradingId)}`;
  const editor = `/papers/${encodeURIComponent(n.paperId)}/rubric`;
  return n.nodeKey ? `${editor}?node=${encodeURIComponent(n.nodeKey)}` : editor;
}

/** The inbox's line for a notification: who did what, where. */
export function notificationSummary(n: Pick<NotificationItem, "kind" | "actor" | "paperTitle">): string {
  const who = n.actor ?? "Someone";
  switch (n.kind) {
    case "mention":
      return `${who} mentioned you on ${n.paperTitle}`;
    case "assignment":
      return `${who} assigned you a review on ${n.paperTitle}`;
    case "returned_to_draft":
      return `${who} returned the rubric of ${n.paperTitle} to draft`;
    case "review_finished":
      return `${who} finished the review you assigned on ${n.paperTitle}`;
  }
}

/** The longest text snapshot kept (a comment is cut at a word, with an ellipsis). */
export const SNAPSHOT_CHARS = 160;

export function snapshotText(text: string): string {
  // By code points: a cut through a surrogate pair would leave text the database cannot store.
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  if (chars.length <= SNAPSHOT_CHARS) return chars.join("");
  const cut = chars.slice(0, SNAPSHOT_CHARS - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${space > SNAPSHOT_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
