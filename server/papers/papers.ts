import "server-only";
import type { Executor, Store } from "@/db/client";
import type { Paper, User } from "@/db/schema";
import { createPaper, listPapersForUser, updatePaper, type PaperListItem } from "@/db/queries/papers";
import { AppError } from "@/lib/errors";
import type { PaperCreateInput, PaperUpdateInput } from "@/lib/papers/schemas";

/** Papers the user may see: all of them for staff, the ones they belong to otherwise. */
export function listPapers(store: Store, user: User): Promise<PaperListItem[]> {
  return listPapersForUser(store.db, user);
}

/** A new paper (staff); 409 when the id is taken. */
export async function addPaper(db: Executor, input: PaperCreateInput, createdBy: string | null): Promise<Paper> {
  const paper = await createPaper(db, input, createdBy);
  if (!paper) throw new AppError("conflict", `A paper with id "${input.id}" already exists`, [{ path: "id", message: "is taken" }]);
  return paper;
}

export async function editPaper(db: Executor, id: string, patch: PaperUpdateInput): Promise<Paper> {
  const paper = await updatePaper(db, id, patch);
  if (!paper) throw new AppError("not_found", `No paper with id "${id}"`);
  return paper;
}
