import "server-only";
import type { Store } from "@/db/client";
import type { PaperRole } from "@/db/schema";
import { addPaperMember, listPaperMembers, removePaperMember, type PaperMemberItem } from "@/db/queries/papers";
import { AppError } from "@/lib/errors";

export function listMembers(store: Store, paperId: string): Promise<PaperMemberItem[]> {
  return listPaperMembers(store.db, paperId);
}

/** Adds (or changes the role of) a member by email; an unknown email becomes an invited user. */
export function addMember(store: Store, input: { paperId: string; email: string; role: PaperRole; addedBy: string }): Promise<PaperMemberItem> {
  return addPaperMember(store.db, input);
}

export async function removeMember(store: Store, paperId: string, userId: string): Promise<void> {
  if (!(await removePaperMember(store.db, paperId, userId))) {
    throw new AppError("not_found", "That user is not a member of this paper");
  }
}
