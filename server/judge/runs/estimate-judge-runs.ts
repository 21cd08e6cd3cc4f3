import "server-only";
import type { Store } from "@/db/client";
import type { JudgeRunRequest } from "@/lib/judge/schemas";
import type { JudgeEstimateAnswer } from "@/lib/judge/views";
import { estimatePlannedRun, planJudgeRuns, sumEstimates } from "./plan-judge-runs";

/** What judging these submissions would take (calls, tokens, cost, duration), from the real prompts; nothing is written and no model called. */
export async function estimateJudgeRuns(store: Store, request: JudgeRunRequest): Promise<JudgeEstimateAnswer> {
  const plan = await planJudgeRuns(store, request);
  const runs: JudgeEstimateAnswer["runs"] = [];
  for (const run of plan.runs) {
    runs.push({
      submissionId: run.submission.id,
      agentName: run.agentName,
      runIndex: run.submission.runIndex,
      estimate: await estimatePlannedRun(store, plan, run),
    });
  }
  const papersWithoutText = new Map(
    plan.runs
      .filter((r) => r.paper.paperMarkdown.trim() === "")
      .map((r) => [r.paper.id, { id: r.paper.id, title: r.paper.title }]),
  );
  return { runs, total: sumEstimates(runs.map((r) => r.estimate)), papersWithoutText: [...papersWithoutText.values()] };
}
