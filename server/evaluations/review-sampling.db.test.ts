import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { listAssignmentsByGradingId } from "@/db/queries/grading-reviews";
import { getGradingById } from "@/db/queries/gradings";
import { addPaperMember } from "@/db/queries/papers";
import { listReviewSamples } from "@/db/queries/review-samples";
import { createUser } from "@/db/queries/users";
import { judgeHumanAgreement } from "@/lib/evaluations/agreement";
import { sampleLeaves, sampleableLeaves } from "@/lib/evaluations/review-sampling";
import { serializeJudgeOutput } from "@/lib/grading/serialize";
import { importGrading } from "@/server/gradings/import-grading";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { getLeaderboard } from "@/server/leaderboard/leaderboard";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { createEvaluation } from "./create-evaluation";
import { DEMO_DIR, DEMO_PAPER, gradeDemoRubric } from "./paperbench-runs.testutil";
import { readEvaluationSummary } from "./read-evaluation";
import { onCellGraded } from "./pipeline/on-cell-graded";
import { readEvaluationMatrix } from "./pipeline/read-matrix";
import { sampleEvaluationForReview, setReviewSampling } from "./review-sampling";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-sampling-"));

describe.each(testDatabaseKinds())("review sampling and judge–human agreement on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;
  let evaluationId: string;
  const graders = ["g1@example.org", "g2@example.org"];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: staffId, source: "test" });
    for (const email of graders)
      await addPaperMember(handle.db, { paperId: DEMO_PAPER, email, role: "grader", addedBy: staffId });
    await createUser(handle.db, { email: "outsider@example.org" });
    const evaluation = await createEvaluation(
      handle,
      {
        name: "sampled",
        agent: "Sampled agent",
        paperIds: [DEMO_PAPER],
        runs: 3,
        reviewSampleSize: 6,
        setup: { time_limit_h: 24 },
      },
      staffId,
    );
    evaluationId = evaluation.id;
    expect(evaluation.reviewSampleSize).toBe(6);
    const patterns = [
      [1, 0, 1],
      [0, 1],
      [1, 1, 0],
    ];
    for (const [i, pattern] of patterns.entries()) {
      const fileText = serializeJudgeOutput(gradeDemoRubric(pattern), {
        judgeType: "simple",
        gradedAt: "2025-04-01T12-30-05-UTC",
      });
      await importGrading(handle, {
        paperId: DEMO_PAPER,
        agentName: "Sampled agent",
        runIndex: i + 1,
        variant: "full",
        human: false,
        fileText,
        userId: staffId,
      });
    }
    await handle.db.execute(
      sql`UPDATE submissions s SET evaluation_id = ${evaluationId} FROM agents a WHERE a.id = s.agent_id AND a.name = 'Sampled agent'`,
    );
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("refuses bad settings naming the field", async () => {
    await expect(setReviewSampling(handle, evaluationId, { sampleSize: 0, graders })).rejects.toMatchObject({
      code: "bad_request",
      details: [{ path: "sampleSize" }],
    });
    await expect(
      setReviewSampling(handle, evaluationId, { sampleSize: 6, graders: ["nobody@example.org"] }),
    ).rejects.toMatchObject({
      code: "bad_request",
      details: [{ path: "graders.0" }],
    });
    await expect(sampleEvaluationForReview(handle, evaluationId, staffId)).rejects.toMatchObject({
      code: "bad_request",
      details: [{ path: "graders" }],
    });
  });

  it("samples each grading's leaves (seeded by the grading) and assigns them blind to the graders in turn, once", async () => {
    // The outsider is not a grader of the paper: skipped in the round-robin.
    expect(
      await setReviewSampling(handle, evaluationId, { sampleSize: 6, graders: [...graders, "outsider@example.org"] }),
    ).toEqual({
      sampleSize: 6,
      graders: [...graders, "outsider@example.org"],
    });
    // The pipeline's hook samples run 1's grading as it is graded (twice: still one sample).
    const [first] = (
      await handle.db.execute(sql`SELECT id FROM submissions WHERE evaluation_id = ${evaluationId} AND run_index = 1`)
    ).rows as { id: string }[];
    await onCellGraded(handle, { submissionId: first.id, evaluationId, failure: null });
    await onCellGraded(handle, { submissionId: first.id, evaluationId, failure: null });
    expect((await listReviewSamples(handle.db, evaluationId)).map((s) => s.userId)).toHaveLength(1);
    // Sample for review: the other two, the graders in turn.
    const { sampled } = await sampleEvaluationForReview(handle, evaluationId, staffId);
    expect(sampled.map((s) => [s.grader, s.leaves])).toEqual([
      ["g2@example.org", 6],
      ["g1@example.org", 6],
    ]);
    for (const s of sampled) {
      const grading = (await getGradingById(handle.db, s.gradingId))!;
      const expected = sampleLeaves(sampleableLeaves(await getGradingRows(handle.db, grading)), 6, grading.id);
      const [assignment] = await listAssignmentsByGradingId(handle.db, s.gradingId);
      expect(assignment).toMatchObject({ userEmail: s.grader, blind: true, nodeKeys: expected });
    }
    expect(await listReviewSamples(handle.db, evaluationId)).toHaveLength(3);
    // Again: every grading is sampled already.
    expect((await sampleEvaluationForReview(handle, evaluationId, staffId)).sampled).toEqual([]);
  });

  it("agreement: F1 of the human marks on sampled leaves against the judge, with its interval, on the summary and the leaderboard row", async () => {
    expect((await readEvaluationSummary(handle, evaluationId)).agreement).toBeNull();
    // Under open blind reviews the row publishes nothing.
    const pendingRow = (
      await getLeaderboard(handle, { split: "one", variant: "full", dataSplits: { one: [DEMO_PAPER] } })
    ).agents[0];
    expect(pendingRow.mean).toBeNull();
    expect(pendingRow.basis.label).toContain("3 awaiting blind review");
    // Each grader scores their samples: the judge's verdict, but the first two leaves of each sample flipped.
    const pairs: { human: number; judge: number }[] = [];
    // Sampled and not reviewed yet: the matrix shows the cells in review.
    expect((await readEvaluationMatrix(handle, evaluationId)).cells.map((c) => c.stage)).toEqual([
      "in_review",
      "in_review",
      "in_review",
    ]);
    // In the order agreement reads them (grading, then leaf): the bootstrap's draws follow it.
    const samples = (await listReviewSamples(handle.db, evaluationId)).sort((a, b) =>
      a.gradingId < b.gradingId ? -1 : 1,
    );
    for (const sample of samples) {
      const verdicts = await handle.db.execute(
        sql`SELECT node_key, score FROM grading_verdicts WHERE grading_id = ${sample.gradingId}`,
      );
      const judgeOf = new Map(
        (verdicts.rows as { node_key: string; score: number }[]).map((v) => [v.node_key, Number(v.score)]),
      );
      for (const [i, key] of [...sample.nodeKeys].sort().entries()) {
        const judge = judgeOf.get(key)!;
        const human = i < 2 ? 1 - judge : judge;
        pairs.push({ human, judge });
        await handle.db.execute(sql`
          INSERT INTO grading_reviews (grading_id, node_key, user_id, score, blind) VALUES (${sample.gradingId}, ${key}, ${sample.userId}, ${human}, true)
        `);
      }
    }
    const expected = judgeHumanAgreement(pairs, { seed: evaluationId })!;
    const summary = await readEvaluationSummary(handle, evaluationId);
    expect(summary.agreement).toEqual(expected);
    expect(summary.agreement).toMatchObject({ leaves: 18 });
    expect(summary.agreement!.f1).toBeLessThan(1);
    // The evaluation page's matrix carries it too, and every sampled leaf reviewed, its cells are counted.
    const matrix = await readEvaluationMatrix(handle, evaluationId);
    expect(matrix.agreement).toEqual(expected);
    expect(matrix.cells.map((c) => c.stage)).toEqual(["counted", "counted", "counted"]);
    const row = (await getLeaderboard(handle, { split: "one", variant: "full", dataSplits: { one: [DEMO_PAPER] } }))
      .agents[0];
    expect(row.agreement).toEqual(expected);
    // Every sampled leaf reviewed: the blind reviews are done and the row is published.
    expect(row.mean).not.toBeNull();
    expect(row.basis.label).not.toContain("awaiting blind review");
  });
});
