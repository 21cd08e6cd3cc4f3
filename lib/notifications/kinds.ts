/**
 * What a notification tells its recipient: someone mentioned them in a comment, assigned them a
 * grading (or subtrees of it) to review, returned a rubric they author to draft, or finished a
 * review they assigned.
 */
export const NOTIFICATION_KINDS = ["mention", "assignment", "returned_to_draft", "review_finished"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
