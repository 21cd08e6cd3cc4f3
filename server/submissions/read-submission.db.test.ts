/**
 * The submission page's read and its Reproduce, on both databases: the view lists the files and
 * every reproduction newest first; Reproduce queues only a full run stored to be run, and not
 * while one of its reproductions is open.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getJobById } from "@/db/queries/jobs";
import { ensureSubmission, getSubmissionById, replaceSubmissionArchive } from "@/db/queries/submissions";
import { agents, blobs, submissions } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { cancelJob } from "@/server/jobs/cancel-job";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { readSubmissionView } from "./read-submission";
import { reproduceSubmission } from "./reproduce-submission";

const PAPER = "read-submission-paper";
const SHA = "a".repeat(64);

describe.each(testDatabaseKinds())("a submission's view and Reproduce on %s", (kind) => {
  let handle: DbHandle;
  let agentId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await seedDemoRubric(handle, PAPER);
    agentId = (await handle.db.insert(agents).values({ name: "View agent" }).returning())[0].id;
    await handle.db.insert(blobs).values({ sha256: SHA, bytes: 10 }).onConflictDoNothing();
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  const submissionOf = async (runIndex: number, variant: "full" | "code-dev", stored: boolean) => {
    const { submission } = await ensureSubmission(handle.db, {
      paperId: PAPER,
      agentId,
      runIndex,
      variant,
      userId: null,
    });
    if (stored)
      await handle.db
        .update(submissions)
        .set({ archiveSha256: SHA })
        .where(sql`id = ${submission.id}`);
    return (
      await handle.db
        .select()
        .from(submissions)
        .where(sql`id = ${submission.id}`)
    )[0];
  };
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => (e instanceof AppError ? e.code : e),
    );

  it("lists the files, the paper and agent, and reproductions newest first", async () => {
    const submission = await submissionOf(1, "full", true);
    await replaceSubmissionArchive(handle.db, submission.id, {
      name: "repo.tar.gz",
      files: [
        { path: "reproduce.sh", size: 12, content: "echo hi\n", skipped: null },
        { path: "data.bin", size: 4, content: null, skipped: "binary" },
      ],
      totalBytes: 16,
      notes: [],
      reproduceLog: null,
    });
    const first = await reproduceSubmission(handle, submission, null);
    // Not twice while the first is queued.
    expect(await refusal(reproduceSubmission(handle, submission, null))).toBe("conflict");
    await cancelJob(handle, (await getJobById(handle.db, first.jobId))!, null);
    const second = await reproduceSubmission(handle, submission, null);

    const view = await readSubmissionView(handle, (await getSubmissionById(handle.db, submission.id))!);
    expect(view.paper.id).toBe(PAPER);
    expect(view.agent.name).toBe("View agent");
    expect(view.archive).toMatchObject({ name: "repo.tar.gz", fileCount: 2, sha256: SHA });
    expect(view.files.map((f) => [f.path, f.skipped])).toEqual([
      ["data.bin", "binary"],
      ["reproduce.sh", null],
    ]);
    expect(view.jobs.map((j) => [j.id, j.status])).toEqual([
      [second.jobId, "queued"],
      [first.jobId, "cancelled"],
    ]);
  });

  it("refuses a Code-Dev run and a run imported for review only", async () => {
    expect(await refusal(reproduceSubmission(handle, await submissionOf(2, "code-dev", true), null))).toBe(
      "bad_request",
    );
    expect(await refusal(reproduceSubmission(handle, await submissionOf(3, "full", false), null))).toBe("conflict");
  });
});
