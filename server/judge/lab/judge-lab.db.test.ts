/**
 * The judge lab and calibration on both databases, through the studio's services and the judge
 * worker: configurations run on a human-labelled submission as lab runs (F1 against the human,
 * overall and per category, cost and time per paper), which neither the leaderboard nor JudgeEval
 * nor an evaluation counts; suggestions from the overrides' reasons through the openai client
 * against the scripted test server (the prompt carries the reasons, each suggestion links the
 * overrides behind it); an accepted addendum is a new version; a lab re-run shows F1 by version.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle, Store } from "@/db/client";
import { getGradingById } from "@/db/queries/gradings";
import { insertJob } from "@/db/queries/jobs";
import { listJudgeEvalCandidateRows } from "@/db/queries/judge-eval";
import { listCountedGradings } from "@/db/queries/leaderboard";
import { getPaperById } from "@/db/queries/papers";
import { parseGradedJson, preorder } from "@/lib/grading/graded-tree";
import { computeMetrics } from "@/lib/judge/eval/metrics";
import { serializeGradedTree } from "@/lib/grading/serialize";
import type { GradedNode } from "@/lib/grading/types";
import type { JudgeConfigInput } from "@/lib/judge/config";
import type { RubricNode } from "@/lib/rubric/types";
import { storeBlob } from "@/server/blobs/store-blob";
import { importGrading } from "@/server/gradings/import-grading";
import { overrideLeafScore } from "@/server/gradings/override-leaf-score";
import { testJudgeConfig } from "@/server/judge/configs/judge-config.testutil";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { toJudgeConfigView } from "@/server/judge/configs/judge-config-view";
import { requireJudgeConfig } from "@/server/judge/configs/list-judge-configs";
import { errorResponse } from "@/server/http/route";
import { startJudgeWorker } from "@/server/judge/worker/judge-worker";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { DEMO_AGENTS, DEMO_RUNS } from "@/server/seed/seed-gradings";
import { seedDemoSubmission } from "@/server/seed/seed-demo-submission";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { startOpenAiTestServer, type OpenAiTestServer } from "@/test/openai-test-server";
import { DEMO_DIR, seedDemoRubric } from "@/test/seed-demo-rubric";
import { acceptAddendum } from "./accept-addendum";
import { readCalibration } from "./calibration";
import { listLabSubmissions } from "./lab-submissions";
import { listJudgeLabs, readJudgeLab } from "./read-judge-lab";
import { startJudgeLab } from "./start-judge-lab";
import { suggestAddendum } from "./suggest-addendum";
import { pollUntil } from "@/test/poll";

const PAPER = "judge-lab-paper";

/** A local HTTP listener that records every request's headers and body (and answers 401): what a configuration's server would be sent. */
async function startRequestListener(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push(
        `${req.method} ${req.url} ${JSON.stringify(req.headers)} ${Buffer.concat(chunks).toString("utf8")}`,
      );
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "no" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The status and fields a route would answer for what the service threw. */
async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; paths: string[] }> {
  const err = await promise.then(
    () => new Error("expected a refusal"),
    (e: unknown) => e,
  );
  const res = errorResponse(err);
  const body = (await res.json()) as { error: { details: { path: string }[] } };
  return { status: res.status, paths: body.error.details.map((d) => d.path) };
}
const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-judge-lab-blobs-"));
process.env.BLOB_DIR = blobDir;

/** The demo rubric graded: leaf i (pre-order) scores `score(i)`. */
function gradedDemo(score: (i: number) => number): GradedNode {
  const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
  let n = 0;
  const convert = (node: RubricNode): GradedNode => {
    const i = node.sub_tasks.length ? -1 : n++;
    return {
      id: node.id,
      requirements: node.requirements,
      weight: node.weight,
      score: i < 0 ? 0 : score(i),
      valid_score: true,
      task_category: node.task_category,
      finegrained_task_category: node.finegrained_task_category,
      explanation: "graded",
      judge_metadata: null,
      sub_tasks: node.sub_tasks.map(convert),
    };
  };
  const parsed = parseGradedJson(serializeGradedTree(convert(rubric)));
  if (!parsed.ok) throw new Error("bad tree");
  return parsed.file.tree;
}

const humanScore = (i: number) => (i % 3 === 0 ? 0 : 1);

describe.each(testDatabaseKinds())("the judge lab on %s", (kind) => {
  let handle: DbHandle;
  let store: Store;
  let submissionId: string;
  let countedJudgeId: string;
  let server: OpenAiTestServer | null = null;
  let worker: { stop(): Promise<void> } | null = null;
  let configNo = 0;
  const human = gradedDemo(humanScore);
  const humanLeaves = preorder(human).filter((n) => n.sub_tasks.length === 0);

  beforeAll(async () => {
    process.env.JOB_LEASE_S = "2";
    process.env.JOB_HEARTBEAT_S = "1";
    handle = await openTestDatabase(kind);
    store = handle;
    await seedDemoRubric(handle, PAPER);
    ({ submissionId } = await seedDemoSubmission(store, PAPER));
    // A succeeded reproduction, so the full variant can be judged.
    const outputs = path.join(blobDir, "outputs.tar.gz");
    fs.writeFileSync(
      outputs,
      await makeTarGz([
        { name: "reproduce.sh", data: "#!/bin/bash\npython wagc.py > results.csv\n" },
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
    const run = {
      paperId: PAPER,
      agentName: DEMO_AGENTS[0].name,
      runIndex: DEMO_RUNS + 1,
      variant: "full" as const,
      userId: null,
    };
    const humanImport = await importGrading(handle, { ...run, human: true, fileText: serializeGradedTree(human) });
    expect(humanImport.submissionId).toBe(submissionId);
    countedJudgeId = (
      await importGrading(handle, { ...run, human: false, fileText: serializeGradedTree(gradedDemo(() => 1)) })
    ).gradingId;
  });
  afterEach(async () => {
    await worker?.stop();
    worker = null;
    await server?.close();
    server = null;
  });
  afterAll(async () => {
    delete process.env.JOB_LEASE_S;
    delete process.env.JOB_HEARTBEAT_S;
    await stopRubricFeed();
    await handle?.close();
  });

  const workerOpts = () => ({
    log: () => {},
    databaseUrl: kind === "postgres" ? (handle as DbHandle & { url?: string }).url : undefined,
  });
  const config = async (fields: Partial<JudgeConfigInput> & Pick<JudgeConfigInput, "kind">) =>
    createJudgeConfig(store, testJudgeConfig({ name: `lab config ${++configNo}`, ...fields }), null);
  const labDone = (labId: string) =>
    pollUntil(
      `lab ${labId} finished`,
      () => readJudgeLab(store, labId),
      (v) => v.groups.every((g) => g.finished === g.runs),
    );
  const counted = async () =>
    (await listCountedGradings(handle.db, "full")).find(
      (g) => g.gradingId && g.paperId === PAPER && g.runIndex === DEMO_RUNS + 1,
    );

  it("lists the submission with a human grading as labelled, the human grading as its truth", async () => {
    const listed = (await listLabSubmissions(store, { paperIds: [PAPER] })).find(
      (s) => s.submissionId === submissionId,
    );
    expect(listed).toMatchObject({ truth: "human_grading", variant: "full" });
  });

  it("runs each configuration on the labelled submission: F1 against the human, per category, cost and time per paper; nothing counts the lab gradings", async () => {
    expect((await counted())?.gradingId).toBe(countedJudgeId);
    const candidatesBefore = await listJudgeEvalCandidateRows(handle.db, { paperIds: [PAPER] });
    server = await startOpenAiTestServer({ verdict: () => ({ score: 0, explanation: "not met" }) });
    const dummy = await config({ kind: "dummy", priceInputPerM: 0, priceCachedInputPerM: 0, priceOutputPerM: 0 });
    const llm = await config({ kind: "llm", baseUrl: server.baseUrl });
    const { labId, runs } = await startJudgeLab(
      store,
      { name: "two judges", variant: "full", configIds: [dummy.id, llm.id], submissionIds: [submissionId] },
      null,
    );
    expect(runs).toBe(2);
    worker = startJudgeWorker(store, workerOpts());
    const view = await labDone(labId);
    expect(view.runs.map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
    expect(view.lab).toMatchObject({ name: "two judges", runs: 2, pending: 0, paperIds: [PAPER] });

    const truth = humanLeaves.map((n) => n.score);
    const [dummyRow, llmRow] = [dummy, llm].map((c) => view.groups.find((g) => g.configId === c.id)!);
    expect(dummyRow.overall).toEqual(
      computeMetrics(
        truth,
        truth.map(() => 1),
      ),
    );
    expect(llmRow.overall).toEqual(
      computeMetrics(
        truth,
        truth.map(() => 0),
      ),
    );
    const categories = [...new Set(humanLeaves.map((n) => n.task_category ?? "null"))];
    expect(Object.keys(dummyRow.stratified).sort()).toEqual(categories.sort());
    for (const c of categories) {
      const leaves = humanLeaves.filter((n) => (n.task_category ?? "null") === c).map((n) => n.score);
      expect(dummyRow.stratified[c]).toEqual(
        computeMetrics(
          leaves,
          leaves.map(() => 1),
        ),
      );
    }
    const llmRun = view.runs.find((r) => r.configId === llm.id)!;
    expect(llmRun.costUsd).toBeGreaterThan(0);
    expect(llmRow.costPerPaperUsd).toBeCloseTo(llmRun.costUsd, 12);
    expect(dummyRow.costPerPaperUsd).toBe(0);
    expect(llmRow.timePerPaperS).toBeGreaterThanOrEqual(0);
    expect(llmRow).toMatchObject({ runs: 1, finished: 1, succeeded: 1, papers: 1, kind: "llm", isDefault: false });

    // The lab gradings are marked and counted nowhere: the leaderboard keeps the imported judge
    // grading, JudgeEval compares it, an evaluation would too.
    for (const r of view.runs) expect((await getGradingById(handle.db, r.gradingId))?.isLab).toBe(true);
    expect((await counted())?.gradingId).toBe(countedJudgeId);
    expect(await listJudgeEvalCandidateRows(handle.db, { paperIds: [PAPER] })).toEqual(candidatesBefore);
  });

  it("refuses a submission without a human grading and an archived configuration, naming the field", async () => {
    const dummy = await config({ kind: "dummy" });
    await expect(
      startJudgeLab(
        store,
        { variant: "full", configIds: [dummy.id], submissionIds: ["00000000-0000-4000-8000-000000000000"] },
        null,
      ),
    ).rejects.toMatchObject({
      code: "bad_request",
      details: [{ path: "submissionIds[0]" }],
    });
  });

  it("calibration: overrides with reasons → suggestions through the model, linked to the overrides; accepted as a new version; a re-run shows F1 by version", async () => {
    const leaves = (
      await handle.db.execute(
        sql`SELECT node_key FROM grading_verdicts WHERE grading_id = ${countedJudgeId} ORDER BY node_id`,
      )
    ).rows as { node_key: string }[];
    const reasons = ["The table is in results.csv, not the log: look there", "Three seeds are required; only one ran"];
    const made = [];
    for (const [i, reason] of [...reasons, ""].entries()) {
      made.push(
        (
          await overrideLeafScore(store, {
            gradingId: countedJudgeId,
            nodeKey: leaves[i].node_key,
            userId: null,
            score: 0,
            reason,
          })
        ).override,
      );
    }
    const calibration = await readCalibration(store, PAPER);
    expect(calibration.overrides.map((o) => o.id)).toEqual(made.map((o) => o.id));
    expect(calibration.overrides[0]).toMatchObject({ judgeScore: 1, humanScore: 0, reason: reasons[0] });
    expect(calibration.overrides[0].requirements.length).toBeGreaterThan(0);
    expect(calibration.latestVersion).toBe(0);

    // The Dummy kind: built from the reasons, no call, marked.
    const dummy = await config({ kind: "dummy" });
    const fromDummy = await suggestAddendum(store, PAPER, { configId: dummy.id });
    expect(fromDummy.generatedBy).toBe("dummy");
    expect(fromDummy.suggestions.flatMap((s) => s.overrideIds).sort()).toEqual(
      made
        .slice(0, 2)
        .map((o) => o.id)
        .sort(),
    );

    // A model: the prompt lists the reasons by override id; the answer links them (an id it was not shown is dropped).
    server = await startOpenAiTestServer({
      verdict: (req) => {
        const ids = [
          ...req.messages
            .map((m) => m.content)
            .join("\n")
            .matchAll(/<override id="([^"]+)">/g),
        ].map((m) => m[1]);
        return {
          score: 1,
          explanation: JSON.stringify({
            suggestions: [
              {
                text: "Read results.csv for the table; require three seeds.",
                overrideIds: [...ids, "not-an-override"],
              },
            ],
          }),
        };
      },
    });
    const llm = await config({ kind: "llm", baseUrl: server.baseUrl });
    const suggested = await suggestAddendum(store, PAPER, { configId: llm.id });
    expect(server.requests).toHaveLength(1);
    const prompt = server.requests[0].messages.map((m) => m.content).join("\n");
    for (const reason of reasons) expect(prompt).toContain(reason);
    expect(suggested).toMatchObject({ generatedBy: "model", model: testJudgeConfig({ name: "default" }).model });
    expect(suggested.suggestions).toEqual([
      { text: "Read results.csv for the table; require three seeds.", overrideIds: made.slice(0, 2).map((o) => o.id) },
    ]);
    expect(suggested.notes).toHaveLength(1);
    expect(suggested.costUsd).toBeGreaterThan(0);

    // Accepted: the text before is kept as version 1, the new one is version 2 and what the judge reads.
    const before = (await getPaperById(handle.db, PAPER))!.judgeAddendum;
    const after = `${before}\n\n${suggested.suggestions[0].text}`;
    const accepted = await acceptAddendum(
      store,
      PAPER,
      { text: after, overrideIds: suggested.suggestions[0].overrideIds, baseVersion: 0 },
      null,
    );
    expect(accepted.before).toBe(before);
    expect(accepted.after).toMatchObject({
      version: 2,
      text: after,
      overrideIds: suggested.suggestions[0].overrideIds,
    });
    expect((await getPaperById(handle.db, PAPER))!.judgeAddendum).toBe(after);
    await expect(
      acceptAddendum(store, PAPER, { text: "other", overrideIds: [], baseVersion: 0 }, null),
    ).rejects.toMatchObject({ code: "conflict" });
    await expect(
      acceptAddendum(store, PAPER, { text: "other", overrideIds: [made[0].gradingId], baseVersion: 2 }, null),
    ).rejects.toMatchObject({
      code: "bad_request",
      details: [{ path: "overrideIds[0]" }],
    });
    const versions = (await readCalibration(store, PAPER)).versions;
    expect(versions.map((v) => [v.version, v.text])).toEqual([
      [1, before],
      [2, after],
    ]);

    // Re-run the lab on this paper: the dummy's runs before (version 1) and after (version 2) side by side.
    const beforeRerun = await readCalibration(store, PAPER);
    expect(beforeRerun.byAddendum.filter((g) => g.kind === "dummy").map((g) => g.addendumVersion)).toEqual([1]);
    // A re-run takes the submissions and configurations of the paper's lab runs so far.
    expect(beforeRerun.rerun.submissionIds).toEqual([submissionId]);
    expect(beforeRerun.rerun.variant).toBe("full");
    expect(beforeRerun.rerun.configIds.sort()).toEqual(beforeRerun.byAddendum.map((g) => g.configId).sort());
    const { labId } = await startJudgeLab(
      store,
      {
        variant: "full",
        configIds: [(await readCalibration(store, PAPER)).byAddendum.find((g) => g.kind === "dummy")!.configId!],
        submissionIds: [submissionId],
      },
      null,
    );
    worker = startJudgeWorker(store, workerOpts());
    await labDone(labId);
    const byAddendum = (await readCalibration(store, PAPER)).byAddendum.filter((g) => g.kind === "dummy");
    expect(byAddendum.map((g) => g.addendumVersion)).toEqual([1, 2]);
    expect(byAddendum[1].overall.num_samples).toBe(humanLeaves.length);
  });

  it("never sends the studio's secrets to a configuration's server: key variables allow-listed, base URLs http(s), re-checked where the key is read", async () => {
    const listener = await startRequestListener();
    const secrets = {
      AUTH_SECRET: "studio-auth-secret-that-stays-home-51c0",
      DATABASE_URL: "postgres://studio:db-password-7a1e@db.internal/studio",
    };
    const env = { ...secrets, JUDGE_KEY_LAB: "lab-judge-key-0b9d" };
    const savedLabKey = process.env.JUDGE_KEY_LAB;
    process.env.JUDGE_KEY_LAB = env.JUDGE_KEY_LAB;
    try {
      // The schema: a key variable outside OPENAI_API_KEY / JUDGE_KEY_*, or a base URL that is not http(s), is a 400 naming the field.
      for (const [field, value] of [
        ["apiKeyEnv", "AUTH_SECRET"],
        ["apiKeyEnv", "DATABASE_URL"],
        ["apiKeyEnv", "S3_SECRET_ACCESS_KEY"],
        ["apiKeyEnv", "JUDGE_KEY_"],
        ["baseUrl", "file:///etc/passwd"],
        ["baseUrl", "javascript:alert(1)"],
        ["baseUrl", "data:text/plain,x"],
      ] as const) {
        const answer = await refusalOf(
          config({ kind: "llm", baseUrl: listener.url, apiKeyEnv: "JUDGE_KEY_LAB", [field]: value }),
        );
        expect(answer.status, value).toBe(400);
        expect(answer.paths, value).toEqual([field]);
      }
      expect(
        (await config({ kind: "llm", baseUrl: "https://api.example.org/v1", apiKeyEnv: "OPENAI_API_KEY" })).apiKeyEnv,
      ).toBe("OPENAI_API_KEY");

      // Configurations stored before the rule, naming AUTH_SECRET and DATABASE_URL, pointing at the listener.
      const stored = [];
      for (const variable of ["AUTH_SECRET", "DATABASE_URL"] as const) {
        const row = await config({ kind: "llm", baseUrl: listener.url, apiKeyEnv: "JUDGE_KEY_LAB" });
        await handle.db.execute(sql`UPDATE judge_configs SET api_key_env = ${variable} WHERE id = ${row.id}`);
        stored.push({ variable, row: await requireJudgeConfig(store, row.id) });
      }
      for (const { variable, row } of stored) {
        // "Is it set?" does not look: the answer cannot map the server's environment.
        expect(toJudgeConfigView(row, env)).toMatchObject({ apiKeyEnv: variable, apiKeySet: false, ready: false });
        // Calibration's call, and a lab, are refused before any request.
        await expect(suggestAddendum(store, PAPER, { configId: row.id }, env)).rejects.toMatchObject({
          code: "conflict",
          message: expect.stringContaining(`names ${variable} for its API key, which it may not`),
        });
        await expect(
          startJudgeLab(store, { variant: "full", configIds: [row.id], submissionIds: [submissionId] }, null),
        ).rejects.toMatchObject({ code: "conflict", details: [{ path: "configIds[0]" }] });
      }

      // A run whose snapshot names them (started under an allowed name, the snapshot rewritten as an old one would read): the worker fails it without a call.
      const good = await config({ kind: "llm", baseUrl: listener.url, apiKeyEnv: "JUDGE_KEY_LAB" });
      const { labId } = await startJudgeLab(
        store,
        { variant: "full", configIds: [good.id], submissionIds: [submissionId] },
        null,
      );
      await handle.db.execute(
        sql`UPDATE judge_runs SET config = jsonb_set(config, '{apiKeyEnv}', '"DATABASE_URL"') WHERE config_id = ${good.id}`,
      );
      worker = startJudgeWorker(store, { ...workerOpts(), env });
      const view = await labDone(labId);
      expect(view.runs.map((r) => r.status)).toEqual(["failed"]);
      const [{ failure_reason: reason }] = (
        await handle.db.execute<{ failure_reason: string }>(
          sql`SELECT j.failure_reason FROM jobs j JOIN judge_runs r ON r.job_id = j.id WHERE r.config_id = ${good.id}`,
        )
      ).rows;
      expect(reason).toContain("names DATABASE_URL for its API key, which it may not");

      expect(listener.requests).toEqual([]);
    } finally {
      if (savedLabKey === undefined) delete process.env.JUDGE_KEY_LAB;
      else process.env.JUDGE_KEY_LAB = savedLabKey;
      await listener.close();
    }
  });

  it("grades every run in the variant asked for, and refuses a submission that variant cannot grade before writing any lab", async () => {
    const dummy = await config({ kind: "dummy" });
    const { labId } = await startJudgeLab(
      store,
      { variant: "code-dev", configIds: [dummy.id], submissionIds: [submissionId] },
      null,
    );
    worker = startJudgeWorker(store, workerOpts());
    const view = await labDone(labId);
    expect(view.runs.map((r) => r.status)).toEqual(["succeeded"]);
    expect((await getGradingById(handle.db, view.runs[0].gradingId))?.rubricView).toBe("code-dev");

    // Labelled, but neither reproduced nor uploaded: full needs outputs, Code-Dev the files.
    const bare = await importGrading(handle, {
      paperId: PAPER,
      agentName: DEMO_AGENTS[1].name,
      runIndex: 1,
      variant: "full",
      userId: null,
      human: true,
      fileText: serializeGradedTree(human),
    });
    const labsBefore = (await listJudgeLabs(store)).length;
    for (const variant of ["full", "code-dev"] as const) {
      await expect(
        startJudgeLab(
          store,
          { variant, configIds: [dummy.id], submissionIds: [submissionId, bare.submissionId] },
          null,
        ),
      ).rejects.toMatchObject({ code: "conflict" });
    }
    expect(await listJudgeLabs(store)).toHaveLength(labsBefore);
  });
});
