/**
 * A rubric change's consequences and the selective re-grade, on both databases, against a
 * brute-force re-grade of every leaf with the same deterministic judge (the real `openai` client
 * against the scripted test server, whose verdict is a function of the criterion's text): a weight
 * change recomputes at once, a requirement change, an added and a removed leaf re-ask only the
 * leaves they touch, and either way the root is the full re-grade's to the bit.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { generateKeyBetween } from "fractional-indexing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle, Store } from "@/db/client";
import { listUnsureFlags, upsertUnsureFlag } from "@/db/queries/grading-unsure-flags";
import { countVerdictsByRubricVersion } from "@/db/queries/grading-repin";
import { getGradingById, getRubricVersionRows } from "@/db/queries/gradings";
import { listVerdicts } from "@/db/queries/grading-verdicts";
import { insertJob } from "@/db/queries/jobs";
import { getJudgeRunById } from "@/db/queries/judge-runs";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { gradingAssignments } from "@/db/schema";
import type { JudgeRunView } from "@/lib/judge/views";
import type { SimpleOperation } from "@/lib/rubric/operations";
import { compareSiblings } from "@/lib/rubric/tree-rows";
import { storeBlob } from "@/server/blobs/store-blob";
import { testJudgeConfig } from "@/server/judge/configs/judge-config.testutil";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { readJudgeRun } from "./read-judge-run";
import { startJudgeRuns } from "./start-judge-run";
import { startJudgeWorker } from "@/server/judge/worker/judge-worker";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { createAccount } from "@/server/users/create-account";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { seedDemoSubmission } from "@/server/seed/seed-demo-submission";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { startOpenAiTestServer, tagged, type OpenAiTestServer, type RecordedRequest } from "@/test/openai-test-server";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import type { GradedNode } from "@/lib/grading/types";
import { serializeGradedTree } from "@/lib/grading/serialize";
import { buildPinnedGradedTree, viewRows } from "@/lib/grading/pinned-tree";
import { importGrading } from "@/server/gradings/import-grading";
import { overrideLeafScore } from "@/server/gradings/override-leaf-score";
import { getPinnedGradedTree } from "@/server/gradings/pinned-grading";
import { regradeAffectedLeaves } from "./regrade-affected-leaves";
import { listRubricConsequences } from "@/server/gradings/rubric-consequences";
import { pollUntil } from "@/test/poll";

const PAPER = "affected-leaves-paper";
const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-affected-blobs-"));
process.env.BLOB_DIR = blobDir;

/** The judge's verdict: met or not by a hash of the criterion, so the same leaf always gets the same score. */
function criterionScore(criterion: string): number {
  return crypto.createHash("sha256").update(criterion).digest()[0] % 2;
}

describe.each(testDatabaseKinds())("re-grading the leaves a rubric change affects on %s", (kind) => {
  let handle: DbHandle;
  let store: Store;
  let submissionId: string;
  let server: OpenAiTestServer;
  let worker: { stop(): Promise<void> };
  let configId: string;
  let rubricId: string;
  let opNo = 0;

  beforeAll(async () => {
    process.env.JOB_LEASE_S = "5";
    process.env.JOB_HEARTBEAT_S = "1";
    handle = await openTestDatabase(kind);
    store = handle;
    ({ rubricId } = await seedDemoRubric(handle, PAPER));
    ({ submissionId } = await seedDemoSubmission(store, PAPER));
    // A succeeded reproduction, so the full variant has outputs to grade.
    const outputs = path.join(blobDir, "outputs.tar.gz");
    fs.writeFileSync(
      outputs,
      await makeTarGz([
        { name: "reproduce.sh", data: "#!/bin/bash\nset -e\npython wagc.py > results.csv\n" },
        { name: "wagc.py", data: "print('a,b')\n" },
        { name: "reproduce.log", data: "final accuracy 0.93\n" },
        { name: "reproduce.log.creation_time", data: new Date("2025-01-01T00:00:00Z").toISOString() },
        { name: "results.csv", data: "a,b\n1,2\n" },
      ]),
    );
    const blob = await storeBlob(store, outputs);
    const job = await insertJob(handle.db, {
      kind: "reproduce",
      paperId: PAPER,
      submissionId,
      gpusRequired: 0,
      timeoutS: 60,
      maxAttempts: 1,
      createdBy: null,
    });
    await handle.db.execute(
      sql`UPDATE jobs SET status = 'succeeded', outputs_sha256 = ${blob.sha256}, finished_at = now() WHERE id = ${job.id}`,
    );

    server = await startOpenAiTestServer({
      verdict: (req) => ({ score: criterionScore(tagged(req, "criterion") ?? ""), explanation: "scripted" }),
    });
    configId = (
      await createJudgeConfig(store, testJudgeConfig({ name: "deterministic", baseUrl: server.baseUrl }), null)
    ).id;
    worker = startJudgeWorker(store, {
      log: () => {},
      databaseUrl: kind === "postgres" ? (handle as DbHandle & { url?: string }).url : undefined,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    delete process.env.JOB_LEASE_S;
    delete process.env.JOB_HEARTBEAT_S;
    await stopRubricFeed();
    await handle?.close();
  });

  const verdictRequests = (from: number): RecordedRequest[] =>
    server.requests.slice(from).filter((r) => r.kind === "verdict");
  const finished = (runId: string) =>
    pollUntil(
      `judge run ${runId} ended`,
      () => readJudgeRun(store, runId) as Promise<JudgeRunView>,
      (r) => !["queued", "running"].includes(r.status),
    );
  /** Every leaf judged anew on the live rubric: a new grading, the brute force to compare with. */
  async function fullRegrade(): Promise<{ gradingId: string; runId: string; score: number; leaves: number }> {
    const [run] = await startJudgeRuns(store, { submissionIds: [submissionId], configId, variant: "full" }, null);
    const done = await finished(run.id);
    expect(done.status).toBe("succeeded");
    return {
      gradingId: run.gradingId,
      runId: run.id,
      score: (await getGradingById(handle.db, run.gradingId))!.score,
      leaves: run.leavesTotal,
    };
  }
  async function apply(op: SimpleOperation): Promise<void> {
    const rubric = (await getRubricByPaperId(handle.db, PAPER))!;
    await applyRubricOperation(store, {
      paperId: PAPER,
      userId: null,
      request: { clientOpId: `affected-${kind}-${++opNo}`, baseRevision: rubric.revision, op },
    });
  }
  const liveRows = () => getLiveNodeRows(handle.db, rubricId);

  it("a weight change moves the score at once, to the full re-grade's; a requirement change, an added and a removed leaf re-ask only those leaves", async () => {
    const original = await fullRegrade();
    const leaves = original.leaves;
    expect(leaves).toBeGreaterThan(10);
    const originalVersion = (await getGradingById(handle.db, original.gradingId))!.rubricVersionId;

    // ── A weight change: every leaf's verdict stands, the root is recomputed ──
    const rows = await liveRows();
    const branch = rows.find((r) => r.nodeId.startsWith("eb7db209"))!;
    await apply({ kind: "update", key: branch.key, fields: { weight: 1 } });
    const afterWeight = await listRubricConsequences(store, PAPER);
    const listed = afterWeight.gradings.find((g) => g.gradingId === original.gradingId)!;
    expect(listed).toMatchObject({ score: original.score, leavesToGrade: 0, kind: "judge", busy: false });
    expect(listed.counts).toMatchObject({ changed: 0, added: 0, removed: 0 });
    expect(listed.counts.reweighted).toBeGreaterThan(0);
    expect(listed.newScore).not.toBeNull();
    expect(listed.newScore).not.toBe(original.score);

    const asked = server.requests.length;
    const [recomputed] = await regradeAffectedLeaves(store, PAPER, { gradingIds: [original.gradingId] }, null);
    expect(recomputed).toMatchObject({
      outcome: "recomputed",
      leavesToGrade: 0,
      judgeRunId: null,
      score: listed.newScore,
    });
    expect(verdictRequests(asked)).toHaveLength(0);
    const bruteWeight = await fullRegrade();
    expect(Object.is(recomputed.score, bruteWeight.score)).toBe(true);
    const repinned = (await getGradingById(handle.db, original.gradingId))!;
    expect(repinned.rubricVersionId).toBe((await getGradingById(handle.db, bruteWeight.gradingId))!.rubricVersionId);
    expect(repinned.score).toBe(bruteWeight.score);
    // Every verdict was kept, and still names the version it was made against.
    expect(await countVerdictsByRubricVersion(handle.db, original.gradingId)).toEqual(
      new Map([[originalVersion, leaves]]),
    );
    expect((await listRubricConsequences(store, PAPER)).gradings.map((g) => g.gradingId)).not.toContain(
      original.gradingId,
    );

    // ── A requirement change, an added leaf, a removed leaf ──
    const now = await liveRows();
    const leafKeys = new Set(now.filter((r) => !now.some((c) => c.parentKey === r.key)).map((r) => r.key));
    const changedLeaf = now.find((r) => r.nodeId.startsWith("b0e5114a"))!;
    const removedLeaf = now.find((r) => r.nodeId.startsWith("87ddce76"))!;
    const parent = now.find((r) => r.nodeId.startsWith("fcb1ff8e"))!;
    const lastSibling = now
      .filter((r) => r.parentKey === parent.key)
      .sort(compareSiblings)
      .at(-1)!;
    expect(leafKeys.has(changedLeaf.key) && leafKeys.has(removedLeaf.key)).toBe(true);
    const changedText = `${changedLeaf.requirements} The threshold is kept per parameter group.`;
    const addedText = "Code has been written to log the clipping threshold of every tensor at every step.";
    const addedKey = crypto.randomUUID();
    await apply({ kind: "update", key: changedLeaf.key, fields: { requirements: changedText } });
    await apply({
      kind: "create",
      nodes: [
        {
          key: addedKey,
          parentKey: parent.key,
          position: generateKeyBetween(lastSibling.position, null),
          nodeId: "added-leaf",
          requirements: addedText,
          weight: 2,
          taskCategory: "Code Development",
          finegrainedTaskCategory: null,
        },
      ],
    });
    await apply({ kind: "delete", keys: [removedLeaf.key] });

    const afterEdit = await listRubricConsequences(store, PAPER);
    const affected = afterEdit.gradings.find((g) => g.gradingId === original.gradingId)!;
    expect(affected.counts).toMatchObject({ changed: 1, added: 1, removed: 1 });
    expect(affected.leavesToGrade).toBe(2);
    expect(affected.newScore).toBeNull();
    expect(affected.minScore).toBeLessThan(affected.maxScore);
    // The brute-force grading of the weight change is affected the same way.
    expect(afterEdit.gradings.find((g) => g.gradingId === bruteWeight.gradingId)?.leavesToGrade).toBe(2);

    const before = server.requests.length;
    const [judging] = await regradeAffectedLeaves(store, PAPER, { gradingIds: [original.gradingId] }, null);
    expect(judging).toMatchObject({ outcome: "judging", leavesToGrade: 2 });
    const run = await finished(judging.judgeRunId!);
    expect(run).toMatchObject({ status: "succeeded", leavesTotal: 2, leavesDone: 2 });
    // Only the changed and the added leaf were asked, each once.
    expect(
      verdictRequests(before)
        .map((r) => tagged(r, "criterion"))
        .sort(),
    ).toEqual([addedText, changedText].sort());

    const brute = await fullRegrade();
    expect(brute.leaves).toBe(leaves);
    const selective = (await getGradingById(handle.db, original.gradingId))!;
    expect(Object.is(selective.score, brute.score)).toBe(true);
    expect(selective.score).toBeGreaterThanOrEqual(affected.minScore);
    expect(selective.score).toBeLessThanOrEqual(affected.maxScore);
    // The grading's tokens are both its runs'.
    const callsOf = async (runId: string) =>
      ((await getJudgeRunById(handle.db, runId))!.tokenUsage as Record<string, { calls: number }>)["gpt-4o-mini"].calls;
    expect((selective.tokenUsage as Record<string, { calls: number }>)["gpt-4o-mini"].calls).toBe(
      (await callsOf(original.runId)) + (await callsOf(judging.judgeRunId!)),
    );
    // Leaf by leaf the same verdicts as the full re-grade.
    const byKey = async (gradingId: string) =>
      new Map((await listVerdicts(handle.db, gradingId)).map((v) => [v.nodeKey, v.score]));
    expect(await byKey(original.gradingId)).toEqual(await byKey(brute.gradingId));
    // The other leaves' verdicts kept from the first grading, 2 made against the live version.
    expect(await countVerdictsByRubricVersion(handle.db, original.gradingId)).toEqual(
      new Map([
        [originalVersion, leaves - 2],
        [selective.rubricVersionId, 2],
      ]),
    );
  });
  it("a human grading of an imported tree (keys of its own) keeps its verdicts and overrides under the live keys; the changed leaf waits for review", async () => {
    const live = viewRows(await liveRows(), "full");
    const isLeaf = (key: string) => !live.some((r) => r.parentKey === key);
    const leaves = live.filter((r) => isLeaf(r.key));
    const edited = leaves[0];
    const overridden = leaves[1];
    // The graded file: every leaf met, and the first leaf's requirements as they were before an edit.
    const graded = buildPinnedGradedTree(
      live,
      leaves.map((r) => ({ nodeKey: r.key, score: 1, valid: true, explanation: "met", judgeMetadata: null })),
    ).tree;
    const firstLeaf = (function find(n: GradedNode): GradedNode {
      return n.sub_tasks.length === 0 ? n : find(n.sub_tasks[0]);
    })(graded);
    expect(firstLeaf.id).toBe(edited.nodeId);
    firstLeaf.requirements = "An older wording of this requirement.";
    const imported = await importGrading(store, {
      paperId: PAPER,
      agentName: "human-expert",
      runIndex: 1,
      variant: "full",
      human: true,
      fileText: serializeGradedTree(graded),
      userId: null,
    });
    expect(imported.pinned).toBe("graded_tree");
    await overrideLeafScore(store, {
      gradingId: imported.gradingId,
      nodeKey: (await keyOfNodeId(imported.gradingId, overridden.nodeId))!,
      userId: null,
      score: 0,
      reason: "not met after all",
    });
    // A grader assigned the subtree of the overridden leaf's parent, named by the imported version's key.
    const parentRow = live.find((r) => r.key === overridden.parentKey)!;
    const importedRows = (await getRubricVersionRows(handle.db, imported.rubricVersionId))!;
    const importedParentKey = importedRows.find(
      (r) =>
        r.nodeId === parentRow.nodeId &&
        importedRows.some((c) => c.parentKey === r.key && c.nodeId === overridden.nodeId),
    )!.key;
    const grader = await createAccount(handle.db, {
      email: `affected-${kind}@test.rubric.studio`,
      password: "affected-grader-pass-1",
    });
    await handle.db
      .insert(gradingAssignments)
      .values({ gradingId: imported.gradingId, userId: grader.id, nodeKeys: [importedParentKey], blind: false });
    // The grader marked the overridden leaf unsure: the flag follows its leaf too.
    await upsertUnsureFlag(handle.db, {
      gradingId: imported.gradingId,
      nodeKey: (await keyOfNodeId(imported.gradingId, overridden.nodeId))!,
      userId: grader.id,
      note: "which run?",
    });

    const listed = (await listRubricConsequences(store, PAPER)).gradings.find(
      (g) => g.gradingId === imported.gradingId,
    )!;
    expect(listed).toMatchObject({ kind: "human", leavesToGrade: 1 });
    expect(listed.counts).toMatchObject({ changed: 1, added: 0, removed: 0 });

    const asked = server.requests.length;
    const [result] = await regradeAffectedLeaves(store, PAPER, { gradingIds: [imported.gradingId] }, null);
    expect(result).toMatchObject({ outcome: "review", leavesToGrade: 1, judgeRunId: null });
    expect(server.requests.length).toBe(asked);
    const grading = (await getGradingById(handle.db, imported.gradingId))!;
    expect(grading.rubricVersionId).not.toBe(imported.rubricVersionId);
    const verdicts = new Map((await listVerdicts(handle.db, imported.gradingId)).map((v) => [v.nodeKey, v]));
    // Verdicts now sit on the live keys: the edited leaf's is an invalid placeholder, counting 0 until reviewed.
    expect([...verdicts.keys()].sort()).toEqual(leaves.map((r) => r.key).sort());
    expect(verdicts.get(edited.key)).toMatchObject({ valid: false, score: 0 });
    expect(verdicts.get(overridden.key)).toMatchObject({ valid: true, score: 1 });
    // The override followed its leaf.
    const { scores, indexOfKey } = await getPinnedGradedTree(handle.db, grading);
    expect(scores.effectiveScoreOf(indexOfKey.get(overridden.key)!)).toBe(0);
    expect(scores.effectiveScoreOf(indexOfKey.get(edited.key)!)).toBe(0);
    expect(grading.score).toBe(scores.rootScore);
    expect(result.score).toBe(scores.rootScore);
    expect((await listUnsureFlags(handle.db, imported.gradingId)).map((f) => [f.nodeKey, f.note])).toEqual([
      [overridden.key, "which run?"],
    ]);
    // The assignment follows its subtree to the live key.
    const [assignment] = await handle.db
      .select()
      .from(gradingAssignments)
      .where(eq(gradingAssignments.gradingId, imported.gradingId));
    expect(assignment.nodeKeys).toEqual([parentRow.key]);
    expect(await countVerdictsByRubricVersion(handle.db, imported.gradingId)).toEqual(
      new Map([
        [imported.rubricVersionId, leaves.length - 1],
        [grading.rubricVersionId, 1],
      ]),
    );
  });

  /** The key a grading's verdict on the leaf with this PaperBench id has. */
  async function keyOfNodeId(gradingId: string, nodeId: string): Promise<string | null> {
    const rows = await handle.db.execute(
      sql`SELECT node_key FROM grading_verdicts WHERE grading_id = ${gradingId} AND node_id = ${nodeId}`,
    );
    return (rows.rows[0] as { node_key: string } | undefined)?.node_key ?? null;
  }
});
