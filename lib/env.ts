import { z } from "zod";

// An empty variable means unset, as in most deployment tools.
const optional = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());
const optionalUrl = (message: string) => z.preprocess((v) => (v === "" ? undefined : v), z.url({ message }).optional());
const optionalCount = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .optional(),
);

/** The studio's environment. Everything is optional: a fresh machine runs the embedded mode. */
export const serverEnvSchema = z.object({
  DATABASE_URL: optionalUrl("must be a postgres:// URL").refine(
    (v) => v === undefined || /^postgres(ql)?:\/\//.test(v),
    "must be a postgres:// URL",
  ),
  DATA_DIR: optional,
  AUTH_SECRET: optional,
  AUTH_GITHUB_ID: optional,
  AUTH_GITHUB_SECRET: optional,
  AUTH_OIDC_ISSUER: optionalUrl("must be the issuer's https:// URL"),
  AUTH_OIDC_ID: optional,
  AUTH_OIDC_SECRET: optional,
  AUTH_OIDC_NAME: optional,
  // The blob store (submissions, outputs): a directory (default <DATA_DIR>/blobs), or S3 when S3_ENDPOINT and S3_BUCKET are set.
  BLOB_DIR: optional,
  S3_ENDPOINT: optionalUrl("must be the S3 endpoint's http(s):// URL"),
  S3_BUCKET: optional,
  S3_REGION: optional,
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  // Limits of an uploaded submission archive (server/submissions/submission-limits.ts has the defaults).
  SUBMISSION_MAX_ARCHIVE_BYTES: optionalCount,
  SUBMISSION_MAX_EXPANDED_BYTES: optionalCount,
  SUBMISSION_MAX_FILES: optionalCount,
  // A Prometheus scrape token for GET /api/metrics (Authorization: Bearer …), beside staff's own.
  METRICS_TOKEN: optional,
});
export type ServerEnv = z.output<typeof serverEnvSchema>;

/**
 * Reads and checks the environment now (not at import: the CLI and tests set it per run). A bad
 * value stops the studio at start with the variable's name, rather than failing a request later.
 */
export function readServerEnv(source: Record<string, string | undefined> = process.env): ServerEnv {
  const parsed = serverEnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}
