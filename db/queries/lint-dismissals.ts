import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { LintDismissal } from "@/lib/rubric/lint-dismissals";
import type { Executor } from "../client";
import { rubricLintDismissals, users } from "../schema";

// A dismissal of the whole rule is stored with node_key "" (see the table).
const nodeKeyOf = (key: string | null) => key ?? "";

/** The reason `code` is dismissed for the node `key` (null: the whole rule), or null. */
export async function getLintDismissalReason(
  db: Executor,
  rubricId: string,
  code: string,
  key: string | null,
): Promise<string | null> {
  const [row] = await db
    .select({ reason: rubricLintDismissals.reason })
    .from(rubricLintDismissals)
    .where(
      and(
        eq(rubricLintDismissals.rubricId, rubricId),
        eq(rubricLintDismissals.code, code),
        eq(rubricLintDismissals.nodeKey, nodeKeyOf(key)),
      ),
    )
    .limit(1);
  return row?.reason ?? null;
}

/** Stores a dismissal (replacing the reason of an earlier one), or removes it when `reason` is null. */
export async function setLintDismissal(
  db: Executor,
  row: {
    rubricId: string;
    code: string;
    key: string | null;
    reason: string | null;
    revision: number;
    userId: string | null;
  },
): Promise<void> {
  const nodeKey = nodeKeyOf(row.key);
  if (row.reason === null) {
    await db
      .delete(rubricLintDismissals)
      .where(
        and(
          eq(rubricLintDismissals.rubricId, row.rubricId),
          eq(rubricLintDismissals.code, row.code),
          eq(rubricLintDismissals.nodeKey, nodeKey),
        ),
      );
    return;
  }
  const values = { reason: row.reason, revision: row.revision, userId: row.userId };
  await db
    .insert(rubricLintDismissals)
    .values({ rubricId: row.rubricId, code: row.code, nodeKey, ...values })
    .onConflictDoUpdate({
      target: [rubricLintDismissals.rubricId, rubricLintDismissals.code, rubricLintDismissals.nodeKey],
      set: values,
    });
}

/** A rubric's dismissals, oldest first, with who made each. */
export async function listLintDismissals(db: Executor, rubricId: string): Promise<LintDismissal[]> {
  const rows = await db
    .select({
      code: rubricLintDismissals.code,
      nodeKey: rubricLintDismissals.nodeKey,
      reason: rubricLintDismissals.reason,
      revision: rubricLintDismissals.revision,
      userName: users.name,
      userEmail: users.email,
    })
    .from(rubricLintDismissals)
    .leftJoin(users, eq(users.id, rubricLintDismissals.userId))
    .where(eq(rubricLintDismissals.rubricId, rubricId))
    .orderBy(asc(rubricLintDismissals.revision), asc(rubricLintDismissals.code), asc(rubricLintDismissals.nodeKey));
  return rows.map((r) => ({
    // Only the operation rules write here, with a code its schema checked.
    code: r.code as LintDismissal["code"],
    key: r.nodeKey === "" ? null : r.nodeKey,
    reason: r.reason,
    revision: r.revision,
    by: r.userName ?? r.userEmail,
  }));
}
