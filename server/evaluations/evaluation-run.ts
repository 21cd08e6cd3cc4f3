import "server-only";
import type { Executor } from "@/db/client";
import { getEvaluationById } from "@/db/queries/evaluations";
import type { Evaluation } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { Variant } from "@/lib/grading/variant";
import { isUuid } from "@/lib/uuid";

/**
 * The evaluation a harness's upload names, when the run fits it: the evaluation's agent and
 * variant, a run within its N, a paper of its split (any paper for an empty custom split). Else a
 * 404 (no such evaluation) or a 400 naming the field.
 */
export async function evaluationForRun(
  db: Executor,
  evaluationId: string,
  run: { paperId: string; agent: string; runIndex: number; variant: Variant },
): Promise<Evaluation> {
  const evaluation = isUuid(evaluationId) ? await getEvaluationById(db, evaluationId) : null;
  if (!evaluation) throw new AppError("not_found", `No evaluation with id "${evaluationId}"`);
  const refuse = (path: string, message: string) =>
    new AppError("bad_request", `${path}: ${message}`, [{ path, message }]);
  if (evaluation.agentName !== run.agent)
    throw refuse("agent", `the evaluation "${evaluation.name}" is of ${evaluation.agentName}, not ${run.agent}`);
  if (evaluation.variant !== run.variant)
    throw refuse("variant", `the evaluation "${evaluation.name}" is of the ${evaluation.variant} variant`);
  if (run.runIndex > evaluation.runs)
    throw refuse("run", `the evaluation "${evaluation.name}" has ${evaluation.runs} run(s)`);
  if (evaluation.paperIds.length > 0 && !evaluation.paperIds.includes(run.paperId)) {
    throw refuse("evaluation", `the paper "${run.paperId}" is not in the evaluation's split (${evaluation.split})`);
  }
  return evaluation;
}
