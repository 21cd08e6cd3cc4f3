import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { AppError } from "@/lib/errors";
import { HUMAN_GRADINGS, readGradingText, type HumanGradingPaper } from "@/lib/grading/grading-data.testutil";
import { parseGradedJson, preorder } from "@/lib/grading/graded-tree";
import { serializeGradedTree } from "@/lib/grading/serialize";
import type { GradedNode } from "@/lib/grading/types";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder, importRubricIntoPaper } from "@/server/papers/import";
import { toCodeDevTree } from "@/lib/rubric/code-dev";
import { paperFile, skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import type { RubricNode } from "@/lib/rubric/types";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { getAgentByName } from "@/db/queries/agents";
import { listGradingOverrides, listVerdictStates } from "@/db/queries/grading-verdicts";
import { getGradingById, listGradingsByPaperId } from "@/db/queries/gradings";
import { createUser } from "@/db/queries/users";
import { readSubmissionArchive } from "@/server/submissions/archive";
import { makeZip } from "@/server/submissions/archive.testutil";
import { exportGrading } from "./export-grading";
import { importGrading } from "./import-grading";
import { overrideLeafScore } from "./override-leaf-score";
import { getPinnedGradedTree, listEffectiveLeafScores } from "./pinned-grading";

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const DEMO_PAPER = "demo-adaptive-clipping";

/** Rows in every table an import writes, to prove a refused import wrote nothing. */
async function countRows(handle: DbHandle): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [
    "agents",
    "submissions",
    "submission_files",
    "gradings",
    "grading_verdicts",
    "grading_overrides",
    "rubric_versions",
  ]) {
    const result = await handle.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`));
    out[table] = Number((result.rows[0] as { n: number }).n);
  }
  return out;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** A graded tree of a rubric with deterministic leaf scores (1 for every third leaf, else 0 or 0.5). */
function gradeRubric(tree: RubricNode): GradedNode {
  let n = 0;
  const convert = (node: RubricNode): GradedNode => {
    const kids = node.sub_tasks.map(convert);
    const leafScore = [1, 0, 0.5][n++ % 3];
    return {
      ...node,
      score: kids.length ? 0 : leafScore,
      valid_score: true,
      explanation: kids.length ? "Aggregated score from sub-tasks." : `leaf ${n}`,
      judge_metadata: kids.length ? null : { n },
      sub_tasks: kids,
    };
  };
  const graded = convert(tree);
  // Internal scores as PaperBench writes them: parse recomputes them.
  const parsed = parseGradedJson(JSON.stringify(graded));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.file.tree;
}

function scoresOf(tree: GradedNode): [string, number, boolean][] {
  return preorder(tree).map((n) => [n.id, n.score, n.valid_score]);
}

describe.each(testDatabaseKinds())("gradings on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: staffId, source: "test" });
  });
  afterAll(async () => {
    await handle?.close();
  });

  describe.skipIf(skipWithoutData)("PaperBench's three human gradings", () => {
    beforeAll(async () => {
      for (const paper of Object.keys(HUMAN_GRADINGS)) {
        const { files, folderName } = readPaperFolder(path.dirname(paperFile(paper, "rubric.json")));
        await importPaperFolder(handle, { files, folderName, userId: null, source: "test" });
      }
    });

    it.each(Object.entries(HUMAN_GRADINGS) as [HumanGradingPaper, number][])(
      "%s: the root score recomputed from the stored verdicts is the file's, bit for bit, and export gives the scores back",
      async (paper, expected) => {
        const text = readGradingText(paper);
        const result = await importGrading(handle, {
          paperId: paper,
          agentName: "PaperBench human expert",
          runIndex: 1,
          variant: "full",
          human: true,
          fileText: text,
          fileName: "expected_result.json",
          userId: staffId,
        });
        expect(Object.is(result.score, expected)).toBe(true);
        expect(Object.is(result.importedScore, expected)).toBe(true);
        expect(result.scoreMatchesFile).toBe(true);
        // Each was graded against an older rubric than today's rubric.json (weights differ, and
        // stay-on-topic's tree a lot): the graded tree became a version of its own.
        expect(result.pinned).toBe("graded_tree");

        // From the database alone: the pinned snapshot, the verdicts, the aggregation.
        const grading = (await getGradingById(handle.db, result.gradingId))!;
        expect(grading.kind).toBe("human");
        expect(Object.is(grading.score, expected)).toBe(true);
        const pinned = await getPinnedGradedTree(handle.db, grading);
        expect(Object.is(pinned.scores.rootScore, expected)).toBe(true);
        expect((await listEffectiveLeafScores(handle.db, grading.id)).length).toBe(result.stats.leaves);

        // Export: a PaperBench graded tree with the same scores; for these files, the same bytes
        // (two of them end with a newline, which json.dumps does not write).
        const exported = await exportGrading(handle, grading.id, "json");
        const reparsed = parseGradedJson(exported.body);
        const original = parseGradedJson(text);
        expect(reparsed.ok && original.ok).toBe(true);
        if (!reparsed.ok || !original.ok) return;
        expect(scoresOf(reparsed.file.tree)).toEqual(scoresOf(original.file.tree));
        expect(Object.is(reparsed.file.fileRootScore, expected)).toBe(true);
        expect(exported.body).toBe(text.replace(/\n$/, ""));

        const csv = await exportGrading(handle, grading.id, "csv");
        expect(csv.body.split("\r\n").filter(Boolean).length).toBe(result.stats.leaves + 1);
      },
    );

    it("a second grading of the same tree reuses the version the first pinned", async () => {
      const text = readGradingText("all-in-one");
      const first = (await listGradingsByPaperId(handle.db, "all-in-one"))[0];
      const again = await importGrading(handle, {
        paperId: "all-in-one",
        agentName: "PaperBench human expert",
        runIndex: 2,
        variant: "full",
        human: true,
        fileText: text,
        userId: null,
      });
      expect(again).toMatchObject({
        pinned: "graded_tree",
        reusedVersion: true,
        rubricVersionId: first.rubricVersionId,
        createdAgent: false,
      });
      expect(Object.is(again.score, HUMAN_GRADINGS["all-in-one"])).toBe(true);
      expect(await listGradingsByPaperId(handle.db, "all-in-one")).toHaveLength(2);
    });
  });

  it("a judge output on the live demo rubric pins a version of it; after an edit, the old tree is its own version", async () => {
    const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
    const graded = gradeRubric(rubric);
    const wrapper = {
      judge_type: "simple",
      score: graded.score,
      num_leaf_nodes: preorder(graded).filter((n) => n.sub_tasks.length === 0).length,
      num_invalid_leaf_nodes: 0,
      graded_at: "2025-04-01T12-30-05-UTC",
      graded_task_tree: JSON.parse(serializeGradedTree(graded)),
      completer_config: { model: "o3-mini-2025-01-31", temperature: 1 },
      token_usage: { "o3-mini": { in: 10, out: 5 } },
    };
    const result = await importGrading(handle, {
      paperId: DEMO_PAPER,
      agentName: "demo agent",
      runIndex: 1,
      variant: "full",
      human: false,
      fileText: JSON.stringify(wrapper),
      fileName: "grader_output.json",
      userId: staffId,
    });
    expect(result).toMatchObject({ pinned: "live", reusedVersion: false, createdAgent: true, createdSubmission: true });
    expect(Object.is(result.score, graded.score)).toBe(true);
    const grading = (await getGradingById(handle.db, result.gradingId))!;
    expect(grading).toMatchObject({ kind: "judge", judgeType: "simple", judgeModel: "o3-mini-2025-01-31" });
    expect(grading.gradedAt?.toISOString()).toBe("2025-04-01T12:30:05.000Z");
    const out = JSON.parse((await exportGrading(handle, grading.id, "judge_output")).body);
    expect(out.completer_config).toEqual(wrapper.completer_config);
    expect(out.score).toBe(graded.score);

    // The rubric changes: the same file no longer matches and pins its own tree.
    const edited = structuredClone(rubric);
    edited.sub_tasks[0].weight += 1;
    await importRubricIntoPaper(handle, {
      paperId: DEMO_PAPER,
      rubricText: JSON.stringify(edited),
      userId: null,
      source: "test",
    });
    const second = await importGrading(handle, {
      paperId: DEMO_PAPER,
      agentName: "demo agent",
      runIndex: 2,
      variant: "full",
      human: false,
      fileText: JSON.stringify(wrapper),
      userId: null,
    });
    expect(second.pinned).toBe("graded_tree");
    expect(Object.is(second.score, graded.score)).toBe(true);
    // Put the rubric back for the tests below.
    await importRubricIntoPaper(handle, {
      paperId: DEMO_PAPER,
      rubricText: JSON.stringify(rubric),
      userId: null,
      source: "test",
    });
  });

  it("a Code-Dev grading pins the live rubric in its Code-Dev view", async () => {
    const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
    const graded = gradeRubric(toCodeDevTree(rubric)!);
    const result = await importGrading(handle, {
      paperId: DEMO_PAPER,
      agentName: "demo agent",
      runIndex: 1,
      variant: "code-dev",
      human: false,
      fileText: serializeGradedTree(graded),
      userId: null,
    });
    expect(result).toMatchObject({ pinned: "live", rubricView: "code-dev" });
    const grading = (await getGradingById(handle.db, result.gradingId))!;
    const exported = await exportGrading(handle, grading.id, "json");
    expect(exported.body).toBe(serializeGradedTree(graded));
  });

  describe("a malformed file is refused with its JSON path, and nothing is written", () => {
    const valid = () =>
      JSON.parse(
        serializeGradedTree(gradeRubric(JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")))),
      );
    const cases: [string, () => string, string, RegExp][] = [
      ["not JSON", () => '{"id": "a",\n "score": }', "(root)", /not valid JSON: .*line 2, column \d+/],
      [
        "a rubric without scores",
        () => fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8"),
        "score",
        /score: is required/,
      ],
      [
        "a string score deep in the tree",
        () => {
          const t = valid();
          t.sub_tasks[1].sub_tasks[0].score = "1";
          return JSON.stringify(t);
        },
        "sub_tasks[1].sub_tasks[0].score",
        /sub_tasks\[1\]\.sub_tasks\[0\]\.score: must be a number/,
      ],
      [
        "a score out of range",
        () => {
          const t = valid();
          t.sub_tasks[0].sub_tasks[0].score = 1.5;
          return JSON.stringify(t);
        },
        "sub_tasks[0].sub_tasks[0].score",
        /between 0 and 1/,
      ],
      [
        "a NUL character in an explanation (the database cannot store it)",
        () => {
          const t = valid();
          t.sub_tasks[0].sub_tasks[0].explanation = "ok\u0000";
          return JSON.stringify(t);
        },
        "sub_tasks[0].sub_tasks[0].explanation",
        /sub_tasks\[0\]\.sub_tasks\[0\]\.explanation: must not contain NUL characters/,
      ],
      [
        "a lone surrogate in a judge_metadata key",
        () => JSON.stringify(valid()).replace('"sub_tasks"', '"judge_metadata": {"\\ud800": 1}, "sub_tasks"'),
        'judge_metadata["\\ud800"]',
        /lone surrogate \(U\+D800\)/,
      ],
      [
        "a judge output without graded_at",
        () =>
          JSON.stringify({
            judge_type: "simple",
            score: 0,
            num_leaf_nodes: 1,
            num_invalid_leaf_nodes: 0,
            graded_task_tree: valid(),
          }),
        "graded_at",
        /graded_at: is required/,
      ],
    ];
    it.each(cases)("%s", async (_name, text, detailPath, message) => {
      const before = await countRows(handle);
      const err = await refusal(
        importGrading(handle, {
          paperId: DEMO_PAPER,
          agentName: "never created",
          runIndex: 1,
          variant: "full",
          human: false,
          fileText: text(),
          userId: null,
        }),
      );
      expect(err.code).toBe("bad_request");
      expect(err.status).toBe(400);
      expect(err.message).toMatch(message);
      expect((err.details as { path: string }[]).map((d) => d.path)).toContain(detailPath);
      expect(await countRows(handle)).toEqual(before);
      expect(await getAgentByName(handle.db, "never created")).toBeNull();
    });

    it("bad run fields and an unknown paper", async () => {
      const text = JSON.stringify(valid());
      const base = {
        paperId: DEMO_PAPER,
        agentName: "x",
        runIndex: 1,
        variant: "full" as const,
        human: false,
        fileText: text,
        userId: null,
      };
      const before = await countRows(handle);
      expect((await refusal(importGrading(handle, { ...base, runIndex: 0 }))).details).toEqual([
        { path: "run", message: "must be at least 1" },
      ]);
      expect((await refusal(importGrading(handle, { ...base, agentName: " " }))).details).toEqual([
        { path: "agent", message: "is required" },
      ]);
      expect((await refusal(importGrading(handle, { ...base, paperId: "no-such-paper" }))).code).toBe("not_found");
      expect(await countRows(handle)).toEqual(before);
    });
  });

  it("keeps a reproduce.log with NUL characters (replaced by U+FFFD) and says so in the answer", async () => {
    const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
    const log = Buffer.concat([Buffer.from("step 1\n"), Buffer.from([0]), Buffer.from("crashed\n")]);
    const archive = await readSubmissionArchive({
      name: "run.zip",
      data: makeZip([
        { name: "reproduce.log", data: log },
        { name: "main.py", data: "print(1)\n" },
      ]),
    });
    const result = await importGrading(handle, {
      paperId: DEMO_PAPER,
      agentName: "nul agent",
      runIndex: 1,
      variant: "full",
      human: false,
      fileText: serializeGradedTree(gradeRubric(rubric)),
      archive,
      userId: null,
    });
    expect(result.archive).toMatchObject({ files: 1, kept: 1, hasReproduceLog: true });
    expect(result.archive!.notes).toEqual([
      { path: "reproduce.log", reason: "kept with 1 NUL character (U+0000) replaced by U+FFFD" },
    ]);
    const stored = await handle.db.execute(
      sql`SELECT reproduce_log FROM submissions WHERE id = ${result.submissionId}::uuid`,
    );
    expect((stored.rows[0] as { reproduce_log: string }).reproduce_log).toBe("step 1\n\uFFFDcrashed\n");
  });

  it("verdict states read back as stored: every leaf, fractional scores to the last bit, validity and source", async () => {
    const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
    const graded = gradeRubric(rubric);
    const fractions = [1 / 3, 0.1 + 0.2, 2 / 7, 1e-9, 0.5];
    let n = 0;
    for (const node of preorder(graded)) {
      if (node.sub_tasks.length > 0) continue;
      node.score = fractions[n % fractions.length];
      node.valid_score = n % 4 !== 0;
      n++;
    }
    const result = await importGrading(handle, {
      paperId: DEMO_PAPER,
      agentName: "verdict state agent",
      runIndex: 1,
      variant: "full",
      human: false,
      fileText: serializeGradedTree(graded),
      userId: null,
    });
    const stored = await handle.db.execute(
      sql`SELECT node_key, score, valid, source FROM grading_verdicts WHERE grading_id = ${result.gradingId}::uuid`,
    );
    const expected = (stored.rows as { node_key: string; score: number | string; valid: boolean; source: string }[])
      .map((r) => ({ nodeKey: r.node_key, score: Number(r.score), valid: r.valid, source: r.source }))
      .sort((a, b) => a.nodeKey.localeCompare(b.nodeKey));
    expect(expected).toHaveLength(n);
    const states = [...(await listVerdictStates(handle.db, result.gradingId))].sort((a, b) =>
      a.nodeKey.localeCompare(b.nodeKey),
    );
    expect(states).toEqual(expected);
    expect(states.map((s) => s.score)).toEqual(expect.arrayContaining([1 / 3, 0.1 + 0.2, 2 / 7, 1e-9]));
    expect(await listVerdictStates(handle.db, "00000000-0000-4000-8000-000000000000")).toEqual([]);
  });

  it("overrides are appended, the latest wins, and the grading's score follows", async () => {
    const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
    const graded = gradeRubric(rubric);
    const result = await importGrading(handle, {
      paperId: DEMO_PAPER,
      agentName: "override agent",
      runIndex: 1,
      variant: "full",
      human: false,
      fileText: serializeGradedTree(graded),
      userId: null,
    });
    const grading = (await getGradingById(handle.db, result.gradingId))!;
    const leaves = await listEffectiveLeafScores(handle.db, grading.id);
    const target = leaves.find((l) => l.verdictScore === 0)!;

    const first = await overrideLeafScore(handle, {
      gradingId: grading.id,
      nodeKey: target.nodeKey,
      userId: staffId,
      score: 1,
      reason: "it runs",
    });
    expect(first.override).toMatchObject({ oldScore: 0, newScore: 1, reason: "it runs", userId: staffId });
    const second = await overrideLeafScore(handle, {
      gradingId: grading.id,
      nodeKey: target.nodeKey,
      userId: staffId,
      score: 0.25,
      reason: "partly",
    });
    expect(second.override).toMatchObject({ oldScore: 1, newScore: 0.25 });

    const history = await listGradingOverrides(handle.db, grading.id);
    expect(history.map((o) => [o.oldScore, o.newScore, o.reason])).toEqual([
      [0, 1, "it runs"],
      [1, 0.25, "partly"],
    ]);
    expect(history[0].user?.email).toBe("staff@example.org");
    const after = (await listEffectiveLeafScores(handle.db, grading.id)).find((l) => l.nodeKey === target.nodeKey)!;
    expect(after).toMatchObject({ verdictScore: 0, overrideScore: 0.25, effectiveScore: 0.25 });

    // The stored score is the aggregation of the effective leaves, and the export carries it.
    const index = preorder(graded).findIndex((n) => n.id === target.nodeId);
    const expectedTree = structuredClone(graded);
    preorder(expectedTree)[index].score = 0.25;
    const expected = parseGradedJson(JSON.stringify(expectedTree));
    if (!expected.ok) throw new Error("unreachable");
    const stored = (await getGradingById(handle.db, grading.id))!;
    expect(Object.is(stored.score, expected.file.tree.score)).toBe(true);
    expect(Object.is(second.score, expected.file.tree.score)).toBe(true);
    const exported = parseGradedJson((await exportGrading(handle, grading.id, "json")).body);
    expect(exported.ok && Object.is(exported.file.tree.score, expected.file.tree.score)).toBe(true);
    const csv = (await exportGrading(handle, grading.id, "csv")).body;
    expect(csv).toContain(`,0,0.25,human,`);

    await expect(
      overrideLeafScore(handle, {
        gradingId: grading.id,
        nodeKey: crypto.randomUUID(),
        userId: null,
        score: 1,
        reason: "",
      }),
    ).rejects.toMatchObject({
      code: "bad_request",
    });
    await expect(
      overrideLeafScore(handle, { gradingId: grading.id, nodeKey: target.nodeKey, userId: null, score: 2, reason: "" }),
    ).rejects.toMatchObject({
      code: "bad_request",
    });
    expect(await listGradingOverrides(handle.db, grading.id)).toHaveLength(2);
  });
});
