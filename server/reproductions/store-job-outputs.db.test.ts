/**
 * The runner's upload of a job's outputs (`PUT /api/runner/jobs/<id>/outputs`): every entry is held
 * to the path rule before anything is stored.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getJobById } from "@/db/queries/jobs";
import { getLiveRunnerTokenByHash } from "@/db/queries/runners";
import { ensureSubmission } from "@/db/queries/submissions";
import { agents } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { registerRunner } from "@/server/runners/register-runner";
import { hashToken } from "@/server/auth/token-hash";
import { createRunnerToken } from "@/server/runners/runner-tokens";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { hostileCases, makeCanary } from "@/server/submissions/hostile-archives.testutil";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { claimReproduceJob } from "./claim-reproduce-job";
import { enqueueReproduceJob } from "@/server/submissions/enqueue-reproduce";
import { readJobToken } from "@/server/runners/job-token";
import { storeJobOutputs } from "./store-job-outputs";

process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "rs-outputs-blobs-"));
const PAPER = "outputs-upload";

describe.each(testDatabaseKinds())("the outputs upload on %s", (kind) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await seedDemoRubric(handle, PAPER);
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  async function runningJob() {
    const [agent] = await handle.db
      .insert(agents)
      .values({ name: `Outputs agent ${Math.random()}` })
      .returning();
    const { submission } = await ensureSubmission(handle.db, {
      paperId: PAPER,
      agentId: agent.id,
      runIndex: 1,
      variant: "full",
      userId: null,
    });
    const { jobId } = await enqueueReproduceJob(handle, { submissionId: submission.id, paperId: PAPER, userId: null });
    const created = await createRunnerToken(handle, { name: "outputs", createdBy: null });
    const token = (await getLiveRunnerTokenByHash(handle.db, hashToken(created.token)))!;
    const { runnerId } = await registerRunner(handle, token, {
      name: "outputs",
      capabilities: { gpus: [], cpus: 1, memoryBytes: 1, backend: "local", maxJobs: 1 },
    });
    const claimed = (await claimReproduceJob(handle, token, { runnerId, freeGpus: [], freeSlots: 1, waitS: 0 }))!;
    return { jobId, lease: readJobToken(claimed.jobToken)! };
  }

  const put = (jobId: string, body: Buffer) =>
    new Request(`http://studio.test/api/runner/jobs/${jobId}/outputs`, { method: "PUT", body: new Uint8Array(body) });
  const blobs = async () =>
    Number(((await handle.db.execute(sql`SELECT count(*)::int AS n FROM blobs`)).rows[0] as { n: number }).n);

  it("refuses `../` and absolute names, links out and a/../b (400 naming the entry); stores nothing, writes nothing outside; a clean archive is stored", async () => {
    const { jobId, lease } = await runningJob();
    const canary = makeCanary();
    const before = await blobs();
    const cases = [
      ...hostileCases("results/", "latest", canary.dir, canary.dir),
      {
        what: "a cron file by ../",
        entries: [{ name: "../../../../etc/cron.d/x", data: "* * * * * root id\n" }],
        entry: "../../../../etc/cron.d/x",
        refusal: /\.\. segment/,
      },
      { what: "/abs", entries: [{ name: "/abs", data: "x" }], entry: "/abs", refusal: /absolute path/ },
    ];
    for (const hostile of cases) {
      const err = (await storeJobOutputs(
        handle,
        lease,
        put(jobId, await makeTarGz([{ name: "reproduce.log", data: "done\n" }, ...hostile.entries])),
      ).catch((e: unknown) => e)) as AppError;
      expect(err, hostile.what).toBeInstanceOf(AppError);
      expect(err.status, hostile.what).toBe(400);
      expect(err.message, hostile.what).toContain(`entry ${JSON.stringify(hostile.entry)}`);
      expect(err.message, hostile.what).toMatch(hostile.refusal);
      if ("planted" in hostile && hostile.planted) expect(fs.existsSync(hostile.planted), hostile.what).toBe(false);
    }
    expect(await blobs()).toBe(before);
    expect((await getJobById(handle.db, jobId))?.outputsSha256 ?? null).toBeNull();

    const stored = await storeJobOutputs(
      handle,
      lease,
      put(
        jobId,
        await makeTarGz([
          { name: "reproduce.log", data: "done\n" },
          { name: "results/latest", type: "symlink", linkname: "t.csv" },
        ]),
      ),
    );
    expect(stored.files).toBe(1);
    expect((await getJobById(handle.db, jobId))?.outputsSha256).toBe(stored.sha256);
    fs.rmSync(canary.dir, { recursive: true, force: true });
  });
});
