import "server-only";
import { eq } from "drizzle-orm";
import type { RunSettings } from "@/lib/jobs/paper-settings";
import type { Executor } from "../client";
import { paperRunSettings, type PaperRunSettings } from "../schema";

/** The paper's stored settings; null when staff never set any (the defaults apply). */
export async function getPaperRunSettings(db: Executor, paperId: string): Promise<PaperRunSettings | null> {
  const [row] = await db.select().from(paperRunSettings).where(eq(paperRunSettings.paperId, paperId)).limit(1);
  return row ?? null;
}

export async function upsertPaperRunSettings(
  db: Executor,
  input: { paperId: string; settings: RunSettings; updatedBy: string | null },
): Promise<PaperRunSettings> {
  const values = { ...input.settings, updatedBy: input.updatedBy, updatedAt: new Date() };
  const [row] = await db
    .insert(paperRunSettings)
    .values({ paperId: input.paperId, ...values })
    .onConflictDoUpdate({ target: paperRunSettings.paperId, set: values })
    .returning();
  return row;
}
