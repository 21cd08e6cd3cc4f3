import "server-only";
import type { Store } from "@/db/client";
import { listPaperIdsOfSubmissions } from "@/db/queries/judge-eval";
import {
  getLatestPaperAddendum,
  insertJudgeLab,
  insertJudgeLabRuns,
  listLabSubmissionRows,
  type LabSubmissionRow,
} from "@/db/queries/judge-lab";
import { getPaperById } from "@/db/queries/papers";
import type { JudgeConfig } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { StartJudgeLabRequest } from "@/lib/judge/lab/schemas";
import { assertJudgeKeyReady } from "@/server/judge/configs/judge-config-view";
import { requireJudgeConfig } from "@/server/judge/configs/list-judge-configs";
import { planJudgeRuns } from "@/server/judge/runs/plan-judge-runs";
import { startJudgeRuns } from "@/server/judge/runs/start-judge-run";

/** The paper's judge addendum now: its text, and the accepted version it is (null: none is). */
async function addendumOf(store: Store, paperId: string): Promise<{ text: string; version: number | null }> {
  const paper = await getPaperById(store.db, paperId);
  if (!paper) throw new AppError("not_found", `No paper ${paperId}`);
  const latest = await getLatestPaperAddendum(store.db, paperId);
  return { text: paper.judgeAddendum, version: latest && latest.text === paper.judgeAddendum ? latest.version : null };
}

/**
 * Starts a judge lab (staff): one judge run per configuration × human-labelled submission,
 * through the judge's own start (a grading, a `judge` job, the run's row), each grading marked
 * as a lab grading so that nothing counts it, all in the request's variant. Each lab run keeps the
 * human truth it is compared with and the judge addendum it ran with. Everything is checked before
 * the first run starts (a submission the variant cannot grade is a 409 naming it).
 */
export async function startJudgeLab(
  store: Store,
  request: StartJudgeLabRequest,
  userId: string | null,
): Promise<{ labId: string; runs: number }> {
  const configs: JudgeConfig[] = [];
  for (const [i, configId] of [...new Set(request.configIds)].entries()) {
    const config = await requireJudgeConfig(store, configId);
    if (config.archivedAt)
      throw new AppError("conflict", `The judge configuration "${config.name}" is archived`, [
        { path: `configIds[${i}]`, message: "is archived" },
      ]);
    assertJudgeKeyReady(config, `configIds[${i}]`);
    configs.push(config);
  }
  const submissionIds = [...new Set(request.submissionIds)];
  const labelled = new Map(
    (await listLabSubmissionRows(store.db, { paperIds: await listPaperIdsOfSubmissions(store.db, submissionIds) })).map(
      (s) => [s.submissionId, s],
    ),
  );
  const chosen: LabSubmissionRow[] = submissionIds.map((id, i) => {
    const found = labelled.get(id);
    if (!found) {
      throw new AppError(
        "bad_request",
        `Submission ${id} has no human grading (or complete review) to compare a judge with`,
        [{ path: `submissionIds[${i}]`, message: "has no human grading" }],
      );
    }
    return found;
  });
  const addenda = new Map<string, { text: string; version: number | null }>();
  for (const s of chosen) if (!addenda.has(s.paperId)) addenda.set(s.paperId, await addendumOf(store, s.paperId));

  const name = request.name?.trim() || `Lab ${new Date().toISOString().slice(0, 16).replace("T", " ")}`;
  const submissionIdsOf = chosen.map((s) => s.submissionId);
  // Before the lab exists: what the variant grades is there for every submission (the plan writes nothing).
  await planJudgeRuns(store, { submissionIds: submissionIdsOf, configId: configs[0].id, variant: request.variant });
  const lab = await insertJudgeLab(store.db, { name, createdBy: userId });
  const truthOf = new Map(chosen.map((s) => [s.submissionId, s]));
  let runs = 0;
  for (const config of configs) {
    const started = await startJudgeRuns(
      store,
      { submissionIds: submissionIdsOf, configId: config.id, variant: request.variant },
      userId,
      { lab: true },
    );
    await insertJudgeLabRuns(
      store.db,
      started.map((run) => {
        const s = truthOf.get(run.submissionId)!;
        const addendum = addenda.get(s.paperId)!;
        return {
          judgeRunId: run.id,
          labId: lab.id,
          configId: config.id,
          configName: config.name,
          paperId: s.paperId,
          truthGradingId: s.truthGradingId,
          addendumVersion: addendum.version,
          judgeAddendum: addendum.text,
        };
      }),
    );
    runs += started.length;
  }
  return { labId: lab.id, runs };
}
