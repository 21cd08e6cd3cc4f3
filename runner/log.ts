import pino, { type DestinationStream, type Logger } from "pino";
import { loggerOptions, logLevelFromEnv, type LogLevel } from "@/lib/observability/log-options";

export type { Logger };

/** What a runner's line is about, logged as fields: its runner, job and lease ids, and figures of its own. */
export type RunnerLogFields = { runnerId?: string; jobId?: string; leaseId?: string } & Record<string, unknown>;

/** A runner event: one human-readable line and the fields it is about. */
export type RunnerEvent = (line: string, fields?: RunnerLogFields) => void;

/** Runner events as JSON log lines at info level. */
export function loggedEvents(logger: Logger): RunnerEvent {
  return (line, fields) => logger.info(fields ?? {}, line);
}

/**
 * The runner's logger: JSON lines on stdout (`service: "runner"`) with the runner's name bound,
 * then its id once registered, and a job's and lease's ids on that job's lines. The same redaction
 * as the studio's (lib/observability/log-options.ts): a runner holds its token and jobs' secrets.
 */
export function createRunnerLogger(
  bindings: Record<string, string>,
  destination: DestinationStream = process.stdout,
  level: LogLevel = logLevelFromEnv(process.env),
): Logger {
  return pino(loggerOptions("runner", level), destination).child(bindings);
}
