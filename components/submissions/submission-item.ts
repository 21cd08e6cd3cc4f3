import type { JobStatus } from "@/lib/jobs/states";
import type { LatestJudgeRunView } from "@/lib/judge/views";

/** A row of `GET /api/papers/<id>/submissions` as the paper page reads it. */
export interface SubmissionItem {
  id: string;
  agentId: string;
  agentName: string;
  runIndex: number;
  variant: "full" | "code-dev";
  archiveName: string | null;
  archiveFileCount: number;
  latestJobStatus: JobStatus | null;
  latestJudge: LatestJudgeRunView | null;
  createdAt: string;
}

/** The runs of each agent, in the list's order (agent, variant, run). */
export function groupByAgent(
  items: readonly SubmissionItem[],
): { agentId: string; agentName: string; items: SubmissionItem[] }[] {
  const groups = new Map<string, { agentId: string; agentName: string; items: SubmissionItem[] }>();
  for (const s of items) {
    const group = groups.get(s.agentId) ?? { agentId: s.agentId, agentName: s.agentName, items: [] };
    group.items.push(s);
    groups.set(s.agentId, group);
  }
  return [...groups.values()];
}
