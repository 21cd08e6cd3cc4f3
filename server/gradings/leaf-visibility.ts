import "server-only";
import type { Executor } from "@/db/client";
import { listCommittedLeafKeys } from "@/db/queries/grading-reviews";
import type { GradingAssignment } from "@/db/schema";
import { assignmentVisibility, SEE_EVERYTHING, type LeafVisibility } from "@/lib/review/visibility";
import type { NodeRow } from "@/lib/rubric/tree-rows";

/** Which leaves of a grading one viewer may see (see lib/review/visibility.ts). */
export async function getLeafVisibility(
  db: Executor,
  input: {
    gradingId: string;
    userId: string;
    role: string;
    assignment: Pick<GradingAssignment, "nodeKeys" | "blind"> | null;
    rows: () => Promise<readonly NodeRow[]>;
  },
): Promise<LeafVisibility> {
  // Staff and authors see every verdict; a grader's assignment limits what they see.
  if (input.role !== "grader" || !input.assignment) return SEE_EVERYTHING;
  const { nodeKeys, blind } = input.assignment;
  if (!nodeKeys && !blind) return SEE_EVERYTHING;
  const rows = nodeKeys ? await input.rows() : [];
  const committed = blind ? await listCommittedLeafKeys(db, input.gradingId, input.userId) : new Set<string>();
  return assignmentVisibility(rows, input.assignment, committed);
}
