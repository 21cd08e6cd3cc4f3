import "server-only";
import type { Store } from "@/db/client";
import { deleteDemoRows } from "@/db/queries/demo";
import { AppError } from "@/lib/errors";
import { announceAccessChange } from "@/server/live/rubric-feed";

export interface DemoDeletion {
  users: number;
  papers: number;
  agents: number;
}

/**
 * Deletes the demo: its users, papers and agents and everything hanging off them (rubrics, runs,
 * gradings, reviews, sessions), in one transaction, so nothing is left half-deleted. Real data stays.
 * The demo users' sessions end with their rows, and their open streams are told at once. A demo
 * staff member may delete it too: their own account goes with it and they are signed out.
 */
export async function deleteDemo(store: Store): Promise<DemoDeletion> {
  const deleted = await store.db.transaction((tx) => deleteDemoRows(tx));
  const total = deleted.userIds.length + deleted.paperIds.length + deleted.agentIds.length;
  if (total === 0) throw new AppError("not_found", "There is no demo data to delete");
  for (const userId of deleted.userIds) await announceAccessChange(store, userId);
  return { users: deleted.userIds.length, papers: deleted.paperIds.length, agents: deleted.agentIds.length };
}
