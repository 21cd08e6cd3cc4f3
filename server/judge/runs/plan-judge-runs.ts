import "server-only";
import type { Executor, Store } from "@/db/client";
import { getAgentById } from "@/db/queries/agents";
import { getPaperById } from "@/db/queries/papers";
import { getRubricVersion } from "@/db/queries/rubric-versions";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { getSubmissionById, listSubmissionsByPaperId } from "@/db/queries/submissions";
import type { JudgeConfig, Paper, Submission } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { Variant } from "@/lib/grading/variant";
import type { JudgeConfigInput } from "@/lib/judge/config";
import { gradedUnits, toJudgeRubric } from "@/lib/judge/rubric-rows";
import type { JudgeRunRequest } from "@/lib/judge/schemas";
import { judgeCostUsd } from "@/lib/judge/cost";
import type { JudgeEstimateView } from "@/lib/judge/views";
import { viewRows } from "@/lib/grading/pinned-tree";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { judgeConfigFields } from "../configs/judge-config-view";
import { requireJudgeConfig } from "../configs/list-judge-configs";
import { estimateRun, judgeRunInput } from "../judge-engine";
import { needsPaperbenchPrompts, paperbenchInputFor, requirePaperbenchPrompts } from "../paperbench-mode";
import { judgeSourceOf, loadJudgeSubmission, type JudgeSource } from "../judge-submission-files";

/** One submission a request names, with what a run on it needs. */
export interface PlannedRun {
  submission: Submission;
  agentName: string;
  paper: Paper;
  source: JudgeSource;
}

export interface JudgePlan {
  config: JudgeConfig;
  fields: JudgeConfigInput;
  variant: Variant;
  maxDepth: number | null;
  rubricVersionId: string | null;
  runs: PlannedRun[];
}

/**
 * Reads and checks a request to judge (for an estimate or a start; writes nothing): the
 * configuration (not archived), the submissions it names, and for each what it would grade
 * (a 409 naming what is missing: a reproduction for the full variant, an archive for Code-Dev).
 */
export async function planJudgeRuns(store: Store, request: JudgeRunRequest): Promise<JudgePlan> {
  const config = await requireJudgeConfig(store, request.configId);
  if (config.archivedAt)
    throw new AppError("conflict", `The judge configuration "${config.name}" is archived`, [
      { path: "configId", message: "is archived" },
    ]);
  // A paperbench-mode configuration cannot grade without PaperBench's prompts: a 409 naming the path.
  if (needsPaperbenchPrompts(judgeConfigFields(config))) await requirePaperbenchPrompts();
  const submissions = await requestedSubmissions(store, request);
  const runs: PlannedRun[] = [];
  const papers = new Map<string, Paper>();
  for (const submission of submissions) {
    let paper = papers.get(submission.paperId);
    if (!paper) {
      paper = (await getPaperById(store.db, submission.paperId)) ?? undefined;
      if (!paper) throw new AppError("not_found", "No such paper");
      papers.set(paper.id, paper);
    }
    const agent = await getAgentById(store.db, submission.agentId);
    runs.push({
      submission,
      agentName: agent?.name ?? "?",
      paper,
      source: await judgeSourceOf(store, submission, request.variant),
    });
  }
  if (request.rubricVersionId && papers.size > 1) {
    throw new AppError(
      "bad_request",
      "rubricVersionId: a chosen version is one paper's: judge one paper's submissions with it",
      [{ path: "rubricVersionId", message: "names one paper's version" }],
    );
  }
  return {
    config,
    fields: judgeConfigFields(config),
    variant: request.variant,
    maxDepth: request.maxDepth ?? null,
    rubricVersionId: request.rubricVersionId ?? null,
    runs,
  };
}

async function requestedSubmissions(store: Store, request: JudgeRunRequest): Promise<Submission[]> {
  if (request.submissionIds) {
    const out: Submission[] = [];
    for (const id of new Set(request.submissionIds)) {
      const submission = await getSubmissionById(store.db, id);
      if (!submission)
        throw new AppError("not_found", `No submission with id ${id}`, [
          { path: "submissionIds", message: `${id} does not exist` },
        ]);
      out.push(submission);
    }
    return out;
  }
  const listed = (await listSubmissionsByPaperId(store.db, request.paperId!)).filter(
    (s) => s.agentId === request.agentId,
  );
  if (listed.length === 0)
    throw new AppError("not_found", "This agent has no submission on this paper", [
      { path: "agentId", message: "has no run on the paper" },
    ]);
  const out: Submission[] = [];
  for (const item of listed) {
    // The variant graded decides which runs count: a Code-Dev run has no reproduction to judge in full.
    if (request.variant === "full" && item.variant === "code-dev") continue;
    const submission = await getSubmissionById(store.db, item.id);
    if (submission) out.push(submission);
  }
  if (out.length === 0)
    throw new AppError("conflict", "This agent's runs on this paper are all Code-Dev: judge them Code-Dev", [
      { path: "variant", message: "no full run" },
    ]);
  return out;
}

/** The rows a run grades (the chosen version, else the live rubric), in the variant's view. */
export async function rubricRowsFor(
  db: Executor,
  paperId: string,
  variant: Variant,
  rubricVersionId: string | null,
): Promise<{ rows: NodeRow[]; viewed: readonly NodeRow[] }> {
  const rubric = await getRubricByPaperId(db, paperId);
  if (!rubric) throw new AppError("conflict", `The paper "${paperId}" has no rubric yet`);
  let rows: NodeRow[];
  if (rubricVersionId) {
    const version = await getRubricVersion(db, rubric.id, rubricVersionId);
    if (!version)
      throw new AppError("not_found", "No such version of this paper's rubric", [
        { path: "rubricVersionId", message: "is not a version of the paper's rubric" },
      ]);
    rows = version.nodes;
  } else {
    rows = await getLiveNodeRows(db, rubric.id);
  }
  const viewed = rows.length > 0 ? viewRows(rows, variant) : [];
  // A Code-Dev view is never empty while the rubric is not: without a Code Development leaf it is the root alone.
  if (viewed.length === 0) throw new AppError("conflict", "The rubric is empty");
  return { rows, viewed };
}

/** How many units (leaves and pseudo-leaves) a run on these rows grades. */
export function unitCount(viewed: readonly NodeRow[], variant: Variant, maxDepth: number | null): number {
  return gradedUnits(toJudgeRubric(viewed), variant === "code-dev", maxDepth).length;
}

/** The engine's estimate for one planned run, priced with the configuration. No model is called. */
export async function estimatePlannedRun(store: Store, plan: JudgePlan, run: PlannedRun): Promise<JudgeEstimateView> {
  const { viewed } = await rubricRowsFor(store.db, run.paper.id, plan.variant, plan.rubricVersionId);
  // The dummy and random judges call no model: their leaves cost nothing and take no time.
  if (plan.fields.kind !== "llm") {
    return {
      leaves: unitCount(viewed, plan.variant, plan.maxDepth),
      calls: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      durationS: 0,
      costUsd: 0,
    };
  }
  const input = judgeRunInput({
    rubric: toJudgeRubric(viewed),
    paper: run.paper,
    submission: await loadJudgeSubmission(run.source),
    variant: plan.variant,
    maxDepth: plan.maxDepth,
    config: plan.fields,
    submissionId: run.submission.id,
    paperbench: await paperbenchInputFor(plan.fields),
  });
  const estimate = await estimateRun(input);
  return { ...estimate, costUsd: judgeCostUsd(plan.fields, estimate) };
}

export function sumEstimates(estimates: readonly JudgeEstimateView[]): JudgeEstimateView {
  const total: JudgeEstimateView = {
    leaves: 0,
    calls: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    durationS: 0,
    costUsd: 0,
  };
  for (const e of estimates) {
    total.leaves += e.leaves;
    total.calls += e.calls;
    total.inputTokens += e.inputTokens;
    total.cachedInputTokens += e.cachedInputTokens;
    total.outputTokens += e.outputTokens;
    // Runs are taken one after another by one worker (each at the configuration's concurrency).
    total.durationS += e.durationS;
    total.costUsd += e.costUsd;
  }
  return total;
}
