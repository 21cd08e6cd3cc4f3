import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { paperSecrets } from "../schema";

export async function listPaperSecretNames(db: Executor, paperId: string): Promise<string[]> {
  const rows = await db
    .select({ name: paperSecrets.name })
    .from(paperSecrets)
    .where(eq(paperSecrets.paperId, paperId))
    .orderBy(asc(paperSecrets.name));
  return rows.map((r) => r.name);
}

/** The paper's secrets as stored: sealed, for the one service that opens them. */
export async function listSealedPaperSecrets(
  db: Executor,
  paperId: string,
): Promise<{ name: string; sealedValue: string }[]> {
  return db
    .select({ name: paperSecrets.name, sealedValue: paperSecrets.sealedValue })
    .from(paperSecrets)
    .where(eq(paperSecrets.paperId, paperId))
    .orderBy(asc(paperSecrets.name));
}

/** Sets the secret, replacing a value of the same name. */
export async function upsertPaperSecret(
  db: Executor,
  input: { paperId: string; name: string; sealedValue: string; updatedBy: string | null },
): Promise<void> {
  const values = { sealedValue: input.sealedValue, updatedBy: input.updatedBy, updatedAt: new Date() };
  await db
    .insert(paperSecrets)
    .values({ paperId: input.paperId, name: input.name, ...values })
    .onConflictDoUpdate({ target: [paperSecrets.paperId, paperSecrets.name], set: values });
}

/** Whether there was such a secret. */
export async function deletePaperSecretByName(db: Executor, paperId: string, name: string): Promise<boolean> {
  const deleted = await db
    .delete(paperSecrets)
    .where(and(eq(paperSecrets.paperId, paperId), eq(paperSecrets.name, name)))
    .returning({ name: paperSecrets.name });
  return deleted.length > 0;
}
