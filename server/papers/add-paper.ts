import "server-only";
import type { Executor } from "@/db/client";
import type { Paper } from "@/db/schema";
import { createPaper } from "@/db/queries/papers";
import { AppError } from "@/lib/errors";
import type { PaperCreateInput } from "@/lib/papers/schemas";

/** A new paper; 409 when the id is taken. Takes a transaction too (an import creates its paper in one). */
export async function addPaper(db: Executor, input: PaperCreateInput, createdBy: string | null): Promise<Paper> {
  const paper = await createPaper(db, input, createdBy);
  if (!paper)
    throw new AppError("conflict", `A paper with id "${input.id}" already exists`, [
      { path: "id", message: "is taken" },
    ]);
  return paper;
}
