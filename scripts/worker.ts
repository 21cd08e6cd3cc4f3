/**
 * `npm run worker`: the studio's judge worker as its own process, on the studio's PostgreSQL
 * (DATABASE_URL). It grades `judge` jobs until SIGINT/SIGTERM, then leaves any run it held to its
 * lease: the next worker resumes it with only the leaves still missing. With the embedded database
 * (PGlite has one owner) the studio runs the worker itself, so this refuses to start.
 */
import { openDatabase } from "@/db/client";
import { readServerEnv } from "@/lib/env";
import { registerJobPlatform } from "@/server/job-platform";
import { startJudgeWorker } from "@/server/judge/worker/judge-worker";

async function main(): Promise<void> {
  const { DATABASE_URL } = readServerEnv();
  if (!DATABASE_URL) {
    console.error(
      "npm run worker needs DATABASE_URL (PostgreSQL): with the embedded database the studio grades judge jobs itself",
    );
    process.exit(2);
  }
  registerJobPlatform();
  const handle = await openDatabase({ databaseUrl: DATABASE_URL });
  const worker = startJudgeWorker(handle, { databaseUrl: DATABASE_URL, log: (line) => console.error(line) });
  console.error("Judge worker: waiting for judge jobs (Ctrl-C stops)");
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.stop();
    await handle.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
