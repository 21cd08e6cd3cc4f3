import "server-only";
import type { Store } from "@/db/client";
import type { User } from "@/db/schema";
import { listPaperMembers, listPapersForUser, type PaperListItem, type PaperMemberItem } from "@/db/queries/papers";

/** Papers the user may see: all of them for staff, the ones they belong to otherwise. */
export function listPapers(store: Store, user: User): Promise<PaperListItem[]> {
  return listPapersForUser(store.db, user);
}

export function listMembers(store: Store, paperId: string): Promise<PaperMemberItem[]> {
  return listPaperMembers(store.db, paperId);
}
