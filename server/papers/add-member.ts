import "server-only";
import type { Store } from "@/db/client";
import type { PaperRole } from "@/db/schema";
import { addPaperMember, type PaperMemberItem } from "@/db/queries/papers";
import { announceAccessChange } from "@/server/live/rubric-feed";

/**
 * Adds (or changes the role of) a member by email; an unknown email becomes an invited user. A role
 * change may take access away: the member's open streams re-check theirs.
 */
export async function addMember(
  store: Store,
  input: { paperId: string; email: string; role: PaperRole; addedBy: string },
): Promise<PaperMemberItem> {
  const member = await addPaperMember(store.db, input);
  await announceAccessChange(store, member.userId);
  return member;
}
