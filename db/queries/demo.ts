import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { agents, papers, users } from "../schema";

/** The demo data's rows: what the seed marked `is_demo`. */

/** Marks rows the demo seed created as demo data. */
export async function setDemoMarks(
  db: Executor,
  input: { userIds: string[]; paperIds: string[]; agentIds: string[] },
): Promise<void> {
  if (input.userIds.length) await db.update(users).set({ isDemo: true }).where(inArray(users.id, input.userIds));
  if (input.paperIds.length) await db.update(papers).set({ isDemo: true }).where(inArray(papers.id, input.paperIds));
  if (input.agentIds.length) await db.update(agents).set({ isDemo: true }).where(inArray(agents.id, input.agentIds));
}

/** Whether any demo user, paper or agent is left: each EXISTS stops at the first row it finds. */
export async function hasDemoRows(db: Executor): Promise<boolean> {
  const result = await db.execute<{ present: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM users WHERE is_demo)
        OR EXISTS (SELECT 1 FROM papers WHERE is_demo)
        OR EXISTS (SELECT 1 FROM agents WHERE is_demo) AS present
  `);
  return result.rows[0].present;
}

/** The demo users who can still sign in (not disabled, with a password), with their hashes. */
export async function listActiveDemoUsers(
  db: Executor,
): Promise<{ id: string; email: string; passwordHash: string }[]> {
  const rows = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.isDemo, true), isNull(users.disabledAt)));
  return rows.flatMap((r) => (r.passwordHash ? [{ id: r.id, email: r.email, passwordHash: r.passwordHash }] : []));
}

export interface DeletedDemoRows {
  userIds: string[];
  paperIds: string[];
  agentIds: string[];
}

/**
 * Deletes every demo row; the foreign keys' cascades take what hangs off them: a demo agent's runs
 * and their gradings (on any paper), a demo paper's rubric, history, comments, members and every
 * run on it, a demo user's sessions, memberships and assignments. What demo users did to real data
 * (a comment, an override, a paper they created) stays, its author set to null.
 */
export async function deleteDemoRows(db: Executor): Promise<DeletedDemoRows> {
  const deletedAgents = await db.delete(agents).where(eq(agents.isDemo, true)).returning({ id: agents.id });
  const deletedPapers = await db.delete(papers).where(eq(papers.isDemo, true)).returning({ id: papers.id });
  const deletedUsers = await db.delete(users).where(eq(users.isDemo, true)).returning({ id: users.id });
  return {
    userIds: deletedUsers.map((r) => r.id),
    paperIds: deletedPapers.map((r) => r.id),
    agentIds: deletedAgents.map((r) => r.id),
  };
}
