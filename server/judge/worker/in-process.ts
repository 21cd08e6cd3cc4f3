import "server-only";
import type { Store } from "@/db/client";
import { log } from "@/server/observability/log";
import { startJudgeWorker } from "./judge-worker";

/**
 * Whether this studio process grades judge jobs itself: with PGlite it must (the database has one
 * owner); on PostgreSQL `npm run worker` does, separately. WORKER_IN_PROCESS=1/0 overrides.
 */
export function wantsInProcessJudgeWorker(
  kind: Store["kind"],
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (env.WORKER_IN_PROCESS === "1") return true;
  if (env.WORKER_IN_PROCESS === "0") return false;
  return kind === "pglite";
}

let started: { stop(): Promise<void> } | null = null;

/** Starts the judge worker inside this process, once. */
export function startInProcessJudgeWorker(store: Store, opts: { databaseUrl?: string } = {}): void {
  started ??= startJudgeWorker(store, {
    databaseUrl: opts.databaseUrl,
    log: (line) => log.info({ worker: "judge" }, line),
  });
}
