import "server-only";
import type { Executor } from "@/db/client";
import { listSampledLeafPairs } from "@/db/queries/review-samples";
import { judgeHumanAgreement, type Agreement } from "@/lib/evaluations/agreement";

/**
 * Judge–human agreement per evaluation, from the human scores on its sampled leaves against the
 * judge's verdicts (`lib/evaluations/agreement.ts`), the bootstrap seeded by the evaluation's id.
 * Evaluations without a reviewed sampled leaf are absent.
 */
export async function readAgreements(db: Executor, evaluationIds: readonly string[]): Promise<Map<string, Agreement>> {
  const pairs = await listSampledLeafPairs(db, evaluationIds);
  const byEvaluation = new Map<string, { human: number; judge: number }[]>();
  for (const p of pairs) {
    const list = byEvaluation.get(p.evaluationId) ?? [];
    list.push({ human: p.human, judge: p.judge });
    byEvaluation.set(p.evaluationId, list);
  }
  const out = new Map<string, Agreement>();
  for (const [id, list] of byEvaluation) {
    const agreement = judgeHumanAgreement(list, { seed: id });
    if (agreement) out.set(id, agreement);
  }
  return out;
}

export async function readEvaluationAgreement(db: Executor, evaluationId: string): Promise<Agreement | null> {
  return (await readAgreements(db, [evaluationId])).get(evaluationId) ?? null;
}
