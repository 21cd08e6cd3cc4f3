import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { submissions } from "@/db/schema";
import { setSubmissionEvaluationId } from "@/db/queries/evaluations";
import { createUser } from "@/db/queries/users";
import { resourcesProvidedScore, resourcesProvidedTree } from "@/lib/grading/resources-provided";
import { parseRubricJson, serializeRubric } from "@/lib/rubric/paperbench";
import { serializeJudgeOutput } from "@/lib/grading/serialize";
import { importGrading } from "@/server/gradings/import-grading";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { exportRubricJson } from "@/server/papers/export";
import { importPaperFolder } from "@/server/papers/import";
import { makeTarGz, makeZip } from "@/server/submissions/archive.testutil";
import { uploadSubmission } from "@/server/submissions/upload-submission";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { createEvaluation } from "./create-evaluation";
import { ingestPaperBenchResults } from "./ingest-paperbench-results";
import { DEMO_DIR, DEMO_PAPER, gradeDemoRubric, makePaperBenchRuns } from "./paperbench-runs.testutil";
import { readEvaluationSummary } from "./read-evaluation";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-blacklist-"));

/** The demo paper's blacklist.txt names https://github.com/example-lab/adaptive-clipping. */
const CHEATING_LOG = [
  "[agent] reading the paper",
  "[tool] web.open https://arxiv.org/abs/2401.00001",
  "[tool] shell: git clone https://github.com/Example-Lab/adaptive-clipping.git",
  "[agent] done",
].join("\n");
const CLEAN_LOG = [
  "[agent] reading the paper",
  "[tool] web.open https://github.com/example-lab/adaptive-clipping-notes",
  "[agent] done",
].join("\n");

describe.each(testDatabaseKinds())("blacklist monitor and resources provided on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;
  let dir: string;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: staffId, source: "test" });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-blacklist-archives-"));
  });
  afterAll(async () => {
    await handle?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const flagsOf = async (submissionId: string) =>
    (await handle.db.select({ flags: submissions.flags }).from(submissions).where(eq(submissions.id, submissionId)))[0]
      .flags;

  it("an upload whose agent.log names a blacklisted URL is flagged with the line; a clean log, a log beside the archive and no log are told apart; the evaluation's policy counts it as 0 or excludes it", async () => {
    const evaluation = await createEvaluation(
      handle,
      { name: "monitored", agent: "Monitored agent", paperIds: [DEMO_PAPER], runs: 3 },
      staffId,
    );
    const upload = async (run: number, archive: Buffer, name: string, agentLog?: string) => {
      const file = path.join(dir, `${run}-${name}`);
      fs.writeFileSync(file, archive);
      let logFile: string | undefined;
      if (agentLog !== undefined) fs.writeFileSync((logFile = path.join(dir, `${run}-agent.log`)), agentLog);
      return uploadSubmission(handle, {
        agent: "Monitored agent",
        run,
        variant: "full",
        reproduce: false,
        replace: false,
        paperId: DEMO_PAPER,
        userId: staffId,
        archive: { path: file, name },
        ...(logFile ? { agentLog: { path: logFile } } : {}),
      });
    };
    // Run 1: PaperBench's logs/agent.log inside the submission folder of a .tar.gz.
    const flagged = await upload(
      1,
      await makeTarGz([
        { name: "submission/reproduce.sh", data: "echo hi\n" },
        { name: "submission/logs/agent.log", data: CHEATING_LOG },
      ]),
      "repo.tar.gz",
    );
    // Run 2: agent.log at the root of a zip, naming only a near miss.
    const clean = await upload(
      2,
      makeZip([
        { name: "reproduce.sh", data: "echo hi\n" },
        { name: "agent.log", data: CLEAN_LOG },
      ]),
      "repo.zip",
    );
    // Run 3: no log in the archive; one sent beside it.
    const beside = await upload(
      3,
      await makeTarGz([{ name: "reproduce.sh", data: "echo hi\n" }]),
      "repo.tar.gz",
      CHEATING_LOG,
    );

    // Joined to the evaluation as ingested runs are: graded below, with no pipeline of their own.
    for (const { submissionId } of [flagged, clean, beside])
      await setSubmissionEvaluationId(handle.db, submissionId, evaluation.id);

    expect(flagged.blacklistHits).toBe(1);
    expect((await flagsOf(flagged.submissionId))?.blacklist).toMatchObject({
      log: "logs/agent.log",
      lines: 4,
      totalHits: 1,
      hits: [
        {
          line: 3,
          rule: "https://github.com/example-lab/adaptive-clipping",
          text: "[tool] shell: git clone https://github.com/Example-Lab/adaptive-clipping.git",
        },
      ],
    });
    expect(clean.blacklistHits).toBe(0);
    expect((await flagsOf(clean.submissionId))?.blacklist).toMatchObject({ log: "agent.log", totalHits: 0, hits: [] });
    expect(beside.blacklistHits).toBe(1);
    expect((await flagsOf(beside.submissionId))?.blacklist).toMatchObject({ log: "agent.log", hits: [{ line: 3 }] });

    // The same runs graded 1 everywhere: the flagged runs count as 0 (the default), then are excluded.
    for (const run of [1, 2, 3]) {
      const fileText = serializeJudgeOutput(gradeDemoRubric([1]), {
        judgeType: "simple",
        gradedAt: "2025-04-01T12-30-05-UTC",
      });
      await importGrading(handle, {
        paperId: DEMO_PAPER,
        agentName: "Monitored agent",
        runIndex: run,
        variant: "full",
        human: false,
        fileText,
        userId: staffId,
      });
    }
    let summary = await readEvaluationSummary(handle, evaluation.id);
    expect(summary.cells.map((c) => [c.run, c.state, c.flagged])).toEqual([
      [1, "succeeded", true],
      [2, "succeeded", false],
      [3, "succeeded", true],
    ]);
    expect(summary.policy.blacklisted).toBe("count as 0");
    expect(summary.result.runScores).toEqual([0, 1, 0]);
    expect(summary.result.counted.find((c) => c.run === 1)?.note).toBe(
      "count as 0: agent's log names a blacklisted site",
    );

    await handle.db.execute(
      sql`UPDATE evaluations SET policies = policies || '{"blacklisted": "exclude"}'::jsonb WHERE id = ${evaluation.id}`,
    );
    summary = await readEvaluationSummary(handle, evaluation.id);
    expect(summary.result.runScores).toEqual([null, 1, null]);
    expect(summary.result.excluded).toEqual([
      { paperId: DEMO_PAPER, run: 1, reason: "excluded: agent's log names a blacklisted site" },
      { paperId: DEMO_PAPER, run: 3, reason: "excluded: agent's log names a blacklisted site" },
    ]);
    expect(summary.result.mean).toBe(1);

    // A replaced archive without a log drops the old flag.
    const replaced = await uploadSubmission(handle, {
      agent: "Monitored agent",
      run: 1,
      variant: "full",
      reproduce: false,
      replace: true,
      paperId: DEMO_PAPER,
      userId: staffId,
      archive: { path: path.join(dir, "3-repo.tar.gz"), name: "repo.tar.gz" },
    });
    expect(replaced.blacklistHits).toBeUndefined();
    expect(await flagsOf(replaced.submissionId)).toBeNull();
  });

  it("the rubric export under resources provided is the rubric with its acquisition leaf weighing 0, byte for byte as PaperBench writes it", async () => {
    const plain = await exportRubricJson(handle, DEMO_PAPER);
    const under = await exportRubricJson(handle, DEMO_PAPER, { resourcesProvided: true });
    const parsed = parseRubricJson(plain);
    if (!parsed.ok) throw new Error("the export did not parse");
    expect(under).toBe(serializeRubric(resourcesProvidedTree(parsed.tree).tree));
    expect(under).not.toBe(plain);
    expect(under.split("\n").filter((line, i) => line !== plain.split("\n")[i])).toEqual([
      expect.stringMatching(/^\s*"weight": 0,$/),
    ]);
  });

  it("ingest reads agent.log beside grade.json; under resources provided every cell's score is its grading's with the acquisition leaf at 0", async () => {
    const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-blacklist-runs-"));
    try {
      const patterns = [[1], [1, 0, 0.5]];
      const made = await makePaperBenchRuns(runsDir, patterns);
      fs.writeFileSync(path.join(runsDir, made[0].runGroupId, made[0].runId, "agent.log"), CHEATING_LOG);
      const { result, summary } = await ingestPaperBenchResults(handle, {
        runsDir,
        agent: "Ingested agent",
        userId: staffId,
      });
      expect(summary.cells.map((c) => c.flagged)).toEqual([true, false]);
      expect(result.runScores).toEqual([0, made[1].score]);
      expect(summary.resourcesProvided).toBeNull();

      await handle.db.execute(sql`UPDATE evaluations SET resources_provided = true WHERE id = ${result.evaluationId}`);
      const under = await readEvaluationSummary(handle, result.evaluationId);
      const expected = resourcesProvidedScore(gradeDemoRubric(patterns[1]));
      expect(expected.zeroedLeaves).toBe(1);
      expect(expected.score).not.toBe(made[1].score);
      expect(under.cells[1].score).toBe(expected.score);
      expect(under.result.runScores).toEqual([0, expected.score]);
      expect(under.resourcesProvided).toEqual({ zeroedLeaves: { [DEMO_PAPER]: 1 } });
    } finally {
      fs.rmSync(runsDir, { recursive: true, force: true });
    }
  });
});
