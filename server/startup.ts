import "server-only";
import { getDb } from "@/db/client";
import { log } from "@/server/observability/log";
import { DEMO_USERS, seedDemo } from "@/server/seed/seed";
import { seedDemoSubmissions } from "@/server/seed/seed-demo-submission";
import { getAuthSecret } from "@/server/auth/secret";
import { registerJobPlatform } from "@/server/job-platform";
import { startQueueUpkeep, stopQueueUpkeep } from "@/server/jobs/queue-upkeep";
import { startEmbeddedRunner, stopEmbeddedRunner, wantsEmbeddedRunner } from "@/server/runners/embedded-runner";
import { stopOnSignals } from "@/server/lifecycle/stopping";
import { startInProcessJudgeWorker, wantsInProcessJudgeWorker } from "@/server/judge/worker/in-process";
import { readServerEnv } from "@/lib/env";

/**
 * Runs once when the studio process starts: opens the database (which migrates it), and in the
 * embedded mode seeds the demo and prints how to sign in.
 */
export async function startStudio(): Promise<void> {
  try {
    await openAndSeed();
  } catch (err) {
    // A locked data directory or an unreachable server: say why and stop, rather than serve 500s.
    log.fatal({ err }, "the studio cannot start");
    process.exit(1);
  }
}

async function openAndSeed(): Promise<void> {
  getAuthSecret();
  registerJobPlatform();
  // Told to stop (SIGTERM from Kubernetes or `kill`, Ctrl-C): streams and long polls end, so
  // Next.js's close is not kept waiting; the embedded runner hands its jobs back and exits; the
  // judge worker's jobs stay to their leases (another worker resumes them).
  stopOnSignals(() => {
    log.info("stopping: ending live streams and long polls");
    stopQueueUpkeep();
    stopEmbeddedRunner();
  });
  const { db, kind, location } = await getDb();
  startQueueUpkeep({ db, kind });
  if (wantsInProcessJudgeWorker(kind))
    startInProcessJudgeWorker({ db, kind }, { databaseUrl: readServerEnv().DATABASE_URL });
  if (wantsEmbeddedRunner(kind)) await startEmbeddedRunner({ db, kind }, { port: Number(process.env.PORT ?? 3000) });
  if (kind !== "pglite") {
    log.info({ database: "postgresql", location }, "migrations applied");
    return;
  }
  const seededPaper = await seedDemo(db);
  // The demo submission and every demo run's files, ready to reproduce on the embedded runner (through the blob store).
  if (seededPaper) await seedDemoSubmissions({ db, kind }, seededPaper);
  const seeded = seededPaper !== null;
  log.info({ database: "pglite", location, demoSeeded: seeded }, "embedded database ready");
  // The demo accounts, for the person who started the studio on their machine: their screen, not a log.
  console.log(
    [
      `Rubric Studio: embedded database in ${location}${seeded ? " (demo seeded)" : ""}`,
      "Demo sign-in (embedded mode only):",
      ...DEMO_USERS.map((u) => `  ${u.role.padEnd(6)} ${u.email}  password: ${u.password}`),
    ].join("\n"),
  );
}
