import "server-only";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { Store } from "@/db/client";
import { log } from "@/server/observability/log";
import { revokeEmbeddedRunnerTokens } from "@/db/queries/runners";
import { createRunnerToken } from "./runner-tokens";

let child: ChildProcess | null = null;

/**
 * Whether this studio starts a runner of its own: by default in the embedded mode (PGlite: one
 * machine, a newcomer), never on PostgreSQL (runners are separate machines there) unless
 * EMBEDDED_RUNNER=1; EMBEDDED_RUNNER=0 turns it off.
 */
export function wantsEmbeddedRunner(
  kind: Store["kind"],
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (env.EMBEDDED_RUNNER === "1") return true;
  if (env.EMBEDDED_RUNNER === "0") return false;
  return kind === "pglite";
}

/**
 * Starts `runner/main.ts` beside the studio, as any runner: over HTTP with a runner token made for
 * it now (the previous embedded tokens are revoked), with an environment of its own that holds no
 * database URL or studio secret. It ends with the studio.
 */
export async function startEmbeddedRunner(store: Store, opts: { port: number }): Promise<void> {
  if (child) return;
  await revokeEmbeddedRunnerTokens(store.db);
  const { token } = await createRunnerToken(store, { name: "embedded runner", createdBy: null, embedded: true });
  const root = /*turbopackIgnore: true*/ process.cwd();
  // One process (the tsx CLI would add a parent between the studio and the runner).
  const args = [
    "--import",
    "tsx",
    path.join(root, "runner", "main.ts"),
    "--url",
    `http://127.0.0.1:${opts.port}`,
    "--name",
    "embedded",
    "--max-jobs",
    process.env.EMBEDDED_RUNNER_MAX_JOBS ?? "2",
  ];
  if (process.env.EMBEDDED_RUNNER_BACKEND) args.push("--backend", process.env.EMBEDDED_RUNNER_BACKEND);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: process.env.LANG,
    RUNNER_TOKEN: token,
    RUNNER_EXIT_WITH_STDIN: "1",
  } as unknown as NodeJS.ProcessEnv;
  // Its stdin is a pipe this process holds: when the studio dies, however it dies, the pipe closes and the runner stops.
  child = spawn(process.execPath, args, { cwd: root, env, stdio: ["pipe", "inherit", "inherit"] });
  child.once("exit", (code, signal) => {
    if (child && !stopping) log.error({ code, signal }, "the embedded runner exited");
    child = null;
  });
  // Next.js exits on SIGTERM and SIGINT; the runner (same process group when run from a terminal) goes with it.
  process.once("exit", stopEmbeddedRunner);
  log.info({ pid: child.pid }, "embedded runner started");
}

let stopping = false;
/** SIGTERM to the runner: it cancels its jobs (their processes get SIGTERM, then SIGKILL) and exits. */
export function stopEmbeddedRunner(): void {
  stopping = true;
  child?.kill("SIGTERM");
}
