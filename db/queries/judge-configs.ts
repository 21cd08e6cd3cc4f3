import "server-only";
import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import type { JudgeConfigInput } from "@/lib/judge/config";
import type { Executor } from "../client";
import { judgeConfigs, type JudgeConfig } from "../schema";

/** Judge configurations (`/judge`): listed, created, changed, archived, one of them the default. */

export async function listJudgeConfigs(db: Executor, opts: { includeArchived: boolean }): Promise<JudgeConfig[]> {
  return db
    .select()
    .from(judgeConfigs)
    .where(opts.includeArchived ? undefined : isNull(judgeConfigs.archivedAt))
    .orderBy(asc(judgeConfigs.archivedAt), asc(judgeConfigs.createdAt), asc(judgeConfigs.name));
}

export async function getJudgeConfigById(db: Executor, id: string): Promise<JudgeConfig | null> {
  const [row] = await db.select().from(judgeConfigs).where(eq(judgeConfigs.id, id)).limit(1);
  return row ?? null;
}

export async function insertJudgeConfig(
  tx: Executor,
  input: JudgeConfigInput & { isDefault?: boolean; isDemo?: boolean; createdBy: string | null },
): Promise<JudgeConfig> {
  const [row] = await tx.insert(judgeConfigs).values(input).returning();
  return row;
}

export async function updateJudgeConfig(
  tx: Executor,
  id: string,
  patch: Partial<JudgeConfigInput>,
): Promise<JudgeConfig | null> {
  const [row] = await tx
    .update(judgeConfigs)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(judgeConfigs.id, id))
    .returning();
  return row ?? null;
}

/** Archives a configuration (runs keep their own snapshot of it); an archived one is no default. */
export async function archiveJudgeConfig(tx: Executor, id: string): Promise<JudgeConfig | null> {
  const [row] = await tx
    .update(judgeConfigs)
    .set({ archivedAt: sql`coalesce(${judgeConfigs.archivedAt}, now())`, isDefault: false, updatedAt: sql`now()` })
    .where(eq(judgeConfigs.id, id))
    .returning();
  return row ?? null;
}

/** Makes `id` the one default: every other configuration stops being it. */
export async function setDefaultJudgeConfig(tx: Executor, id: string): Promise<void> {
  await tx
    .update(judgeConfigs)
    .set({ isDefault: false })
    .where(and(eq(judgeConfigs.isDefault, true), ne(judgeConfigs.id, id)));
  await tx
    .update(judgeConfigs)
    .set({ isDefault: true, updatedAt: sql`now()` })
    .where(eq(judgeConfigs.id, id));
}
