/**
 * How the studio and the runner write their logs (pino, one JSON object per line): the fields that
 * never reach a log, and the level. Both loggers are made from these options, so the rule of what
 * is redacted is written once. Plain data: the loggers themselves live in server/observability and
 * runner/, which own the I/O.
 */

/**
 * Keys whose value is replaced by "[redacted]" wherever a log call passes them, at the top level or
 * one object down (`{ req: { headers } }`). No code logs a header, a token or a body on purpose;
 * this catches the one that does by mistake.
 */
export const REDACTED_KEYS = [
  "authorization",
  "cookie",
  "headers",
  "body",
  "password",
  "token",
  "jobToken",
  "runnerToken",
  "secret",
  "apiKey",
] as const;

export const REDACTED = "[redacted]";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

const LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** LOG_LEVEL when it names a level; else info, or warn under a test runner (NODE_ENV=test) so test output stays readable. */
export function logLevelFromEnv(env: Readonly<Record<string, string | undefined>>): LogLevel {
  const wanted = env.LOG_LEVEL?.trim().toLowerCase();
  if (wanted && (LEVELS as readonly string[]).includes(wanted)) return wanted as LogLevel;
  return env.NODE_ENV === "test" ? "warn" : "info";
}

/** pino's options for a process named `service` ("studio", "runner"). */
export function loggerOptions(service: string, level: LogLevel) {
  return {
    level,
    base: { service },
    // Level names ("info"), not pino's numbers: what a person or a log query reads.
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: REDACTED_KEYS.flatMap((key) => [key, `*.${key}`]), censor: REDACTED },
  };
}
