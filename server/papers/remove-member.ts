import "server-only";
import type { Store } from "@/db/client";
import { removePaperMember } from "@/db/queries/papers";
import { AppError } from "@/lib/errors";
import { announceAccessChange } from "@/server/live/rubric-feed";

/** Takes a member off the paper (their open streams of it end at once); 404 when the user is not one. */
export async function removeMember(store: Store, paperId: string, userId: string): Promise<void> {
  if (!(await removePaperMember(store.db, paperId, userId))) {
    throw new AppError("not_found", "That user is not a member of this paper");
  }
  await announceAccessChange(store, userId);
}
