import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { parseGradedJson, preorder } from "@/lib/grading/graded-tree";
import { evaluateGradedFiles, evaluateJudge } from "@/lib/judge/eval/metrics";
import { serializeGradedTree } from "@/lib/grading/serialize";
import type { GradedNode } from "@/lib/grading/types";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { PAPERBENCH_DATA_DIR, requirePaperBenchData, skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import type { RubricNode } from "@/lib/rubric/types";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { importGrading } from "@/server/gradings/import-grading";
import { overrideLeafScore } from "@/server/gradings/override-leaf-score";
import { getJudgeEvalCandidates, listJudgeEvalCandidates } from "./candidates";
import { evaluateCandidates, judgeEvalResultsFile } from "./evaluate";

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const PAPER = "demo-adaptive-clipping";

/** The demo rubric graded: leaf i scores `score(i)`; `invalid` leaves are judge errors. */
function gradedDemo(score: (i: number) => number, invalid: ReadonlySet<number> = new Set()): GradedNode {
  const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
  let n = 0;
  const convert = (node: RubricNode): GradedNode => {
    const i = node.sub_tasks.length ? -1 : n++;
    return {
      id: node.id,
      requirements: node.requirements,
      weight: node.weight,
      score: i < 0 ? 0 : invalid.has(i) ? 0 : score(i),
      valid_score: !invalid.has(i),
      task_category: node.task_category,
      finegrained_task_category: node.finegrained_task_category,
      explanation: i < 0 ? "Aggregated score from sub-tasks." : "judged",
      judge_metadata: null,
      sub_tasks: node.sub_tasks.map(convert),
    };
  };
  return parse(serializeGradedTree(convert(rubric)));
}

function parse(text: string): GradedNode {
  const parsed = parseGradedJson(text);
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join("; "));
  return parsed.file.tree;
}

const judgeScore = (i: number) => i % 2;
const humanScore = (i: number) => (i % 3 === 0 ? 1 - (i % 2) : i % 2); // disagrees on every third leaf

describe.each(testDatabaseKinds())("JudgeEval queries on %s", (kind) => {
  let handle: DbHandle;
  const judgeTree = gradedDemo(judgeScore, new Set([1]));
  const humanTree = gradedDemo(humanScore);
  const ids: Record<string, string> = {};

  const grade = async (agent: string, human: boolean, tree: GradedNode) =>
    importGrading(handle, {
      paperId: PAPER,
      agentName: agent,
      runIndex: 1,
      variant: "full",
      human,
      fileText: serializeGradedTree(tree),
      userId: null,
    });
  const leafKeys = async (gradingId: string) =>
    (
      await handle.db.execute(
        sql`SELECT node_key, node_id, score FROM grading_verdicts WHERE grading_id = ${gradingId}`,
      )
    ).rows as { node_key: string; node_id: string; score: number }[];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: null, source: "test" });
    // A: a human grading and two judge gradings (the latest is compared).
    await grade(
      "A",
      false,
      gradedDemo(() => 0),
    );
    ids.aHuman = (await grade("A", true, humanTree)).gradingId;
    ids.aJudge = (await grade("A", false, judgeTree)).gradingId;
    ids.aSubmission = (await grade("A", false, judgeTree)).submissionId;
    ids.aJudge = (
      await handle.db.execute(
        sql`SELECT id FROM gradings WHERE submission_id = ${ids.aSubmission} AND kind = 'judge' ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows[0].id as string;
    // B: a judge grading a reviewer went through in full, overriding two leaves.
    const b = await grade("B", false, gradedDemo(judgeScore));
    ids.bJudge = b.gradingId;
    ids.bSubmission = b.submissionId;
    const leaves = (await leafKeys(b.gradingId)).sort((x, y) => x.node_key.localeCompare(y.node_key));
    for (const leaf of leaves.slice(0, 2)) {
      await overrideLeafScore(handle, {
        gradingId: b.gradingId,
        nodeKey: leaf.node_key,
        userId: null,
        score: 1 - leaf.score,
        reason: "test",
      });
    }
    ids.bOverridden = leaves
      .slice(0, 2)
      .map((l) => l.node_key)
      .join(",");
    await handle.db.execute(sql`UPDATE gradings SET reviewed_at = now() WHERE id = ${b.gradingId}`);
    // C: judge only, not reviewed; D: human only. Neither can be compared.
    await grade("C", false, judgeTree);
    await grade("D", true, humanTree);
    // E: reviewed with a half score (JudgeEval reads 0 or 1 only).
    const e = await grade("E", false, gradedDemo(judgeScore));
    ids.eSubmission = e.submissionId;
    const [eLeaf] = await leafKeys(e.gradingId);
    await overrideLeafScore(handle, {
      gradingId: e.gradingId,
      nodeKey: eLeaf.node_key,
      userId: null,
      score: 0.5,
      reason: "half",
    });
    await handle.db.execute(sql`UPDATE gradings SET reviewed_at = now() WHERE id = ${e.gradingId}`);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("pairs a human grading with the latest judge grading, and a complete review with its own verdicts", async () => {
    const candidates = await listJudgeEvalCandidates(handle);
    expect(candidates.map((c) => [c.agentName, c.truth])).toEqual([
      ["A", "human_grading"],
      ["B", "review"],
      ["E", "review"],
    ]);
    const [a, b] = candidates;
    expect(a).toMatchObject({
      submissionId: ids.aSubmission,
      humanGradingId: ids.aHuman,
      judgeGradingId: ids.aJudge,
      paperId: PAPER,
    });
    expect(b).toMatchObject({ submissionId: ids.bSubmission, humanGradingId: ids.bJudge, judgeGradingId: ids.bJudge });
    expect(await listJudgeEvalCandidates(handle, { paperIds: ["other"] })).toEqual([]);
    await expect(getJudgeEvalCandidates(handle, [crypto.randomUUID()])).rejects.toMatchObject({ code: "not_found" });
  });

  it("computes PaperBench's metrics of a human–judge pair as the files give them, invalid leaves left out", async () => {
    const [a] = await getJudgeEvalCandidates(handle, [ids.aSubmission]);
    const report = await evaluateCandidates(handle, [a]);
    const expected = evaluateJudge([{ human: humanTree, judge: judgeTree }]);
    expect(report.overall).toEqual(expected.overall);
    expect(report.stratified).toEqual(expected.stratified);
    expect(report.confusion).toEqual(expected.confusion);
    expect(report.excluded).toEqual({ invalid_judge: 1, invalid_human: 0, unmatched: 0 });
    expect(report.disagreementCount).toBe(expected.disagreements.length);
    expect(report.disagreementCount).toBeGreaterThan(0);
  });

  it("pools any set of submissions, and ranks disagreements by effective share", async () => {
    const candidates = await getJudgeEvalCandidates(handle, [ids.aSubmission, ids.bSubmission]);
    const report = await evaluateCandidates(handle, candidates);
    const one = async (id: string) => evaluateCandidates(handle, await getJudgeEvalCandidates(handle, [id]));
    const [ra, rb] = [await one(ids.aSubmission), await one(ids.bSubmission)];
    expect(report.overall.num_samples).toBe(ra.overall.num_samples + rb.overall.num_samples);
    expect(report.confusion).toEqual({
      tn: ra.confusion.tn + rb.confusion.tn,
      fp: ra.confusion.fp + rb.confusion.fp,
      fn: ra.confusion.fn + rb.confusion.fn,
      tp: ra.confusion.tp + rb.confusion.tp,
    });
    expect(report.pairs.map((p) => p.candidate.agentName)).toEqual(["A", "B"]);
    const shares = report.disagreements.map((d) => d.share);
    expect(shares).toEqual([...shares].sort((x, y) => y - x));
    // The review's disagreements are exactly the leaves the reviewer overrode.
    expect(rb.disagreements.map((d) => d.nodeKey).sort()).toEqual(ids.bOverridden.split(",").sort());
    expect(rb.overall.num_samples - rb.disagreementCount).toBe(rb.confusion.tn + rb.confusion.tp);
    // Each disagreement names its leaf in the judge grading.
    const byKey = new Map((await leafKeys(ids.aJudge)).map((l) => [l.node_key, l.node_id]));
    for (const d of report.disagreements.filter((x) => x.judgeGradingId === ids.aJudge))
      expect(byKey.get(d.nodeKey)).toBe(d.nodeId);
  });

  it("skips a submission whose truth is not 0 or 1, saying why", async () => {
    const candidates = await getJudgeEvalCandidates(handle, [ids.aSubmission, ids.eSubmission]);
    const report = await evaluateCandidates(handle, candidates);
    expect(report.pairs.map((p) => p.candidate.agentName)).toEqual(["A"]);
    expect(report.skipped).toHaveLength(1);
    expect(report.skipped[0].message).toMatch(/0 or 1, got 0\.5/);
    await expect(judgeEvalResultsFile(handle, candidates)).rejects.toMatchObject({ code: "bad_request" });
  });

  it("exports PaperBench's JudgeEval results.json", async () => {
    const candidates = await getJudgeEvalCandidates(handle, [ids.aSubmission, ids.bSubmission]);
    const report = await evaluateCandidates(handle, candidates);
    const file = await judgeEvalResultsFile(handle, candidates, { timestamp: "20250401_120000" });
    expect(file.fileName).toBe(`judge-eval-${PAPER}-results.json`);
    const json = JSON.parse(file.body);
    expect(Object.keys(json)).toEqual([
      "judge_type",
      "code_only",
      "judge_kwargs",
      "results",
      "aggregate_metrics",
      "aggregate_token_usage",
      "timestamp",
    ]);
    expect(json.judge_type).toBe("unknown");
    expect(json.code_only).toBe(false);
    expect(json.results.map((r: { example_id: string }) => r.example_id)).toEqual([
      `${PAPER}/A/run-1`,
      `${PAPER}/B/run-1`,
    ]);
    expect(Object.keys(json.results[0])).toEqual([
      "example_id",
      "paper_id",
      "judge_type",
      "judge_kwargs",
      "metrics",
      "token_usage",
      "graded_task_tree",
    ]);
    expect(json.aggregate_metrics.overall.accuracy).toBe(report.overall.accuracy);
    expect(Object.keys(json.aggregate_metrics.overall)).toEqual([
      "accuracy",
      "precision",
      "recall",
      "f1",
      "num_positives",
      "num_negatives",
      "num_samples",
    ]);
    expect(Object.keys(json.aggregate_metrics.stratified)).toEqual([
      "Code Development",
      "Code Execution",
      "Result Analysis",
    ]);
    expect(json.timestamp).toBe("20250401_120000");
    // The judge's tree as graded (the review's overrides are the truth, not the judge's verdicts).
    const judgeLeaves = preorder(json.results[1].graded_task_tree as GradedNode).filter(
      (n) => n.sub_tasks.length === 0,
    );
    expect(judgeLeaves.map((l) => l.score)).toEqual(
      preorder(gradedDemo(judgeScore))
        .filter((n) => n.sub_tasks.length === 0)
        .map((l) => l.score),
    );
  });

  it.skipIf(skipWithoutData)("agrees with the command line on a real PaperBench human grading", async () => {
    requirePaperBenchData();
    const paper = "stay-on-topic-with-classifier-free-guidance";
    const { files, folderName } = readPaperFolder(path.join(PAPERBENCH_DATA_DIR, "papers", paper));
    await importPaperFolder(handle, { files, folderName, userId: null, source: "test" });
    const humanText = fs.readFileSync(
      path.join(PAPERBENCH_DATA_DIR, "judge_eval", paper, "expected_result.json"),
      "utf8",
    );
    const judge = parse(humanText);
    preorder(judge)
      .filter((n) => n.sub_tasks.length === 0)
      .forEach((leaf, i) => {
        if (i % 4 === 1) leaf.score = 1 - leaf.score;
        if (i === 7) leaf.valid_score = false;
      });
    const judgeText = serializeGradedTree(parse(serializeGradedTree(judge)));
    const base = { paperId: paper, agentName: "real", runIndex: 1, variant: "full" as const, userId: null };
    await importGrading(handle, { ...base, human: true, fileText: humanText });
    const { submissionId } = await importGrading(handle, { ...base, human: false, fileText: judgeText });
    const report = await evaluateCandidates(handle, await getJudgeEvalCandidates(handle, [submissionId]));
    const cli = evaluateGradedFiles({ name: "human.json", text: humanText }, { name: "judge.json", text: judgeText });
    if (!cli.ok) throw new Error(cli.errors.join("; "));
    expect(report.overall).toEqual(cli.report.overall);
    expect(report.stratified).toEqual(cli.report.stratified);
    expect(report.excluded.invalid_judge).toBe(1);
    expect(report.disagreementCount).toBe(cli.report.disagreements.length);
  });
});
