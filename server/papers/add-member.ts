import "server-only";
import type { Store } from "@/db/client";
import type { PaperRole } from "@/db/schema";
import { addPaperMember, type PaperMemberItem } from "@/db/queries/papers";

/** Adds (or changes the role of) a member by email; an unknown email becomes an invited user. */
export function addMember(store: Store, input: { paperId: string; email: string; role: PaperRole; addedBy: string }): Promise<PaperMemberItem> {
  return addPaperMember(store.db, input);
}
