import "server-only";
import type { Executor } from "@/db/client";
import { listGradingsByPaperId } from "@/db/queries/gradings";
import { upsertGradingAssignment } from "@/db/queries/grading-reviews";
import { getGradingRows } from "@/server/gradings/pinned-grading";

/**
 * Demo review assignments for the embedded mode's first start, so "My reviews" has a queue: the
 * demo grader reviews the first agent's first judged run (the one with their override), the
 * second agent's first run blind (verdicts show once they commit a score), and the first subtree
 * of the third agent's second run.
 */
export async function seedDemoAssignments(
  tx: Executor,
  input: { paperId: string; staffId: string; graderId: string; agentNames: readonly string[] },
): Promise<{ assignments: number }> {
  const judged = (await listGradingsByPaperId(tx, input.paperId)).filter((g) => g.kind === "judge");
  const find = (agent: string | undefined, run: number) =>
    judged.find((g) => g.agentName === agent && g.runIndex === run);
  const plan = [
    { grading: find(input.agentNames[0], 1), blind: false, subtree: false },
    { grading: find(input.agentNames[1], 1), blind: true, subtree: false },
    { grading: find(input.agentNames[2], 2), blind: false, subtree: true },
  ];
  let assignments = 0;
  for (const p of plan) {
    if (!p.grading) continue;
    let nodeKeys: string[] | null = null;
    if (p.subtree) {
      const rows = await getGradingRows(tx, p.grading);
      const first = rows.find((r) => r.parentKey === rows[0]?.key);
      nodeKeys = first ? [first.key] : null;
    }
    await upsertGradingAssignment(tx, {
      gradingId: p.grading.id,
      userId: input.graderId,
      nodeKeys,
      blind: p.blind,
      assignedBy: input.staffId,
    });
    assignments++;
  }
  return { assignments };
}
