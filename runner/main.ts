import { parseRunnerOptions, USAGE, UsageError } from "./cli-options";
import { createRunnerLogger, loggedEvents } from "./log";
import { startRunner } from "./runner-loop";

/**
 * `RUNNER_TOKEN=<t> npm run runner -- --url <studio> …`: one runner until SIGTERM or SIGINT. What it
 * does is logged as JSON lines on stdout (runner/log.ts); a usage error, said before anything runs,
 * and a fatal error are plain text on stderr for the person who typed the command.
 */
async function main(): Promise<void> {
  let options;
  try {
    options = parseRunnerOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n${USAGE}`);
    process.exit(2);
  }
  const logger = createRunnerLogger({ runnerName: options.name });
  const stamp = loggedEvents(logger);
  const { warnings, ...runnerOptions } = options;
  for (const warning of warnings) logger.warn(warning);
  // Started by a studio (its embedded runner): the studio holds our stdin open, and a closed stdin
  // means the studio is gone (even killed with SIGKILL), so the runner goes too instead of polling
  // a dead address forever.
  let onStudioGone: () => void = () => {
    stamp("the studio that started this runner is gone: exiting");
    process.exit(0);
  };
  if (process.env.RUNNER_EXIT_WITH_STDIN === "1") {
    process.stdin.on("end", () => onStudioGone());
    process.stdin.on("close", () => onStudioGone());
    process.stdin.resume();
  }
  const runner = await startRunner({ ...runnerOptions, event: stamp });
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) return;
    stamp(
      runner.backend === "kubernetes"
        ? `${signal}: stopping (the job pods run on; this runner started again under its name re-adopts them)`
        : `${signal}: stopping (running jobs are stopped and will be requeued)`,
    );
    void runner.stop();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  onStudioGone = () => onSignal("SIGTERM");
  await runner.done;
  stamp("stopped");
  // Ending without a signal means the studio refused the runner (a revoked token).
  process.exit(signals > 0 ? 0 : 1);
}

main().catch((err: Error) => {
  console.error(`runner: ${err.message}`);
  process.exit(1);
});
