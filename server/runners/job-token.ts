import "server-only";
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { TOKEN_PREFIX } from "@/lib/runner/protocol";
import { getAuthSecret } from "@/server/auth/secret";

/**
 * A job token names one job, one lease and the runner token the job was claimed with, and is
 * signed by the studio (HMAC-SHA256 with a key derived from AUTH_SECRET), so it needs no table: it
 * is good for that job's downloads, uploads, heartbeats, logs and completion while that lease is
 * the job's current one (the queries check it) and that runner token is not revoked
 * (`authenticateJobToken`), and for nothing else. Every studio instance sharing AUTH_SECRET accepts it.
 */
let cachedKey: { secret: string; key: Buffer } | null = null;
function key(): Buffer {
  const secret = getAuthSecret();
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "rubric-studio", "job-token", 32)) };
  }
  return cachedKey.key;
}

function mac(jobId: string, leaseId: string, runnerTokenId: string): string {
  return createHmac("sha256", key()).update(`${jobId}.${leaseId}.${runnerTokenId}`).digest("base64url");
}

export function issueJobToken(jobId: string, leaseId: string, runnerTokenId: string): string {
  return `${TOKEN_PREFIX.job}${jobId}.${leaseId}.${runnerTokenId}.${mac(jobId, leaseId, runnerTokenId)}`;
}

/** The job, lease and runner token a token was issued for, or null when it is not a genuine job token. */
export function readJobToken(token: string): { jobId: string; leaseId: string; runnerTokenId: string } | null {
  if (!token.startsWith(TOKEN_PREFIX.job)) return null;
  const [jobId, leaseId, runnerTokenId, signature, ...rest] = token.slice(TOKEN_PREFIX.job.length).split(".");
  if (!jobId || !leaseId || !runnerTokenId || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(jobId, leaseId, runnerTokenId));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { jobId, leaseId, runnerTokenId };
}
