import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";
import { loggerOptions, logLevelFromEnv, type LogLevel } from "@/lib/observability/log-options";

export type { Logger };

/**
 * The studio's logger: JSON lines on stdout (`service: "studio"`), with what must never be logged
 * redacted (lib/observability/log-options.ts). Code that knows a request, job, lease or runner logs
 * through a child that carries its id (`log.child({ requestId })`, `{ jobId, leaseId }`,
 * `{ runnerId }`), so a log query finds every line of one of them.
 */
export function createStudioLogger(
  destination: DestinationStream = process.stdout,
  level: LogLevel = logLevelFromEnv(process.env),
): Logger {
  return pino(loggerOptions("studio", level), destination);
}

export const log = createStudioLogger();
