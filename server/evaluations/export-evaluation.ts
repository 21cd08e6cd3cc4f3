import "server-only";
import type { Store } from "@/db/client";
import { evaluationCellsCsv, evaluationResultsJson, type ExportCell } from "@/lib/evaluations/export";
import { readEvaluationSummary } from "./read-evaluation";

/** An evaluation's results as PaperBench-shaped JSON, or its cells as CSV (pending cells included). */
export async function exportEvaluation(
  store: Store,
  id: string,
  format: "json" | "csv",
): Promise<{ body: string; contentType: string; fileName: string }> {
  const { evaluation, papers, cells, policy, result } = await readEvaluationSummary(store, id);
  const slug = evaluation.name.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^-+|-+$/g, "") || "evaluation";
  if (format === "json") {
    const json = evaluationResultsJson(
      {
        id: evaluation.id,
        name: evaluation.name,
        agent: evaluation.agentName,
        split: evaluation.split,
        variant: evaluation.variant,
        runs: evaluation.runs,
        aggregation: evaluation.aggregation,
        resourcesProvided: evaluation.resourcesProvided,
        isHuman: evaluation.isHuman,
        setup: evaluation.setup,
      },
      policy,
      papers,
      result,
    );
    return {
      body: JSON.stringify(json, null, 2) + "\n",
      contentType: "application/json; charset=utf-8",
      fileName: `${slug}.json`,
    };
  }
  const exportCells: ExportCell[] = cells.map((c) => ({
    paperId: c.paperId,
    run: c.run,
    state: c.state,
    score: c.score,
    submissionId: c.submissionId,
    gradingId: c.gradingId,
    invalidLeaves: c.invalidLeaves,
    leaves: c.leaves,
    runGroupId: c.imported?.runGroupId ?? null,
  }));
  const present = new Set(cells.map((c) => `${c.paperId}\u0000${c.run}`));
  for (const paperId of papers) {
    for (let run = 1; run <= evaluation.runs; run++) {
      if (!present.has(`${paperId}\u0000${run}`)) {
        exportCells.push({
          paperId,
          run,
          state: "pending",
          score: null,
          submissionId: null,
          gradingId: null,
          invalidLeaves: 0,
          leaves: 0,
          runGroupId: null,
        });
      }
    }
  }
  return {
    body: evaluationCellsCsv(exportCells, result),
    contentType: "text/csv; charset=utf-8",
    fileName: `${slug}.csv`,
  };
}
