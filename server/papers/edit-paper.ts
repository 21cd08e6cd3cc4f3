import "server-only";
import type { Executor } from "@/db/client";
import type { Paper } from "@/db/schema";
import { updatePaper } from "@/db/queries/papers";
import { AppError } from "@/lib/errors";
import type { PaperUpdateInput } from "@/lib/papers/schemas";

/** Changes a paper's fields; 404 when there is no such paper. Takes a transaction too (an import updates its paper in one). */
export async function editPaper(db: Executor, id: string, patch: PaperUpdateInput): Promise<Paper> {
  const paper = await updatePaper(db, id, patch);
  if (!paper) throw new AppError("not_found", `No paper with id "${id}"`);
  return paper;
}
