import "server-only";
import type { Executor } from "@/db/client";
import { listMentionablePeople } from "@/db/queries/rubric-comments";
import { findMentionedEmails, withMentionNames } from "@/lib/comments/mentions";
import { AppError } from "@/lib/errors";

/**
 * The ids of the people `body` mentions, and `body` as they read it (mentions by name, for their
 * notification); a mention of someone who is not on the paper is refused.
 */
export async function resolveMentions(
  db: Executor,
  paperId: string,
  body: string,
): Promise<{ ids: string[]; readable: string }> {
  const emails = findMentionedEmails(body);
  if (emails.length === 0) return { ids: [], readable: body };
  const people = await listMentionablePeople(db, paperId);
  const byEmail = new Map(people.map((p) => [p.email, p.id]));
  const unknown = emails.filter((e) => !byEmail.has(e));
  if (unknown.length > 0) {
    const list = unknown.map((e) => `@${e}`).join(", ");
    throw new AppError(
      "bad_request",
      `Only people on this paper can be mentioned: ${list} ${unknown.length === 1 ? "is" : "are"} not`,
      [{ path: "body", message: `mentions ${list}, who ${unknown.length === 1 ? "is" : "are"} not on this paper` }],
    );
  }
  return { ids: emails.map((e) => byEmail.get(e)!), readable: withMentionNames(body, people) };
}
