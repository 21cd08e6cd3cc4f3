import "server-only";
import { randomBytes } from "node:crypto";
import type { Store } from "@/db/client";
import {
  getLiveRunnerTokenByHash,
  insertRunnerToken,
  isRunnerTokenLive,
  listRunnerTokens,
  revokeRunnerToken,
  type RunnerTokenListItem,
} from "@/db/queries/runners";
import type { RunnerToken } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { TOKEN_PREFIX } from "@/lib/runner/protocol";
import { isUuid } from "@/lib/uuid";
import { hashToken } from "@/server/auth/token-hash";

/** A new runner token, returned once; only its hash is stored. */
export async function createRunnerToken(
  store: Store,
  input: { name: string; createdBy: string | null; embedded?: boolean },
): Promise<{ token: string; id: string }> {
  const token = `${TOKEN_PREFIX.runner}${randomBytes(24).toString("base64url")}`;
  const row = await insertRunnerToken(store.db, {
    name: input.name,
    tokenHash: hashToken(token),
    createdBy: input.createdBy,
    embedded: input.embedded,
  });
  return { token, id: row.id };
}

export function listRunnerTokensForStaff(store: Store): Promise<RunnerTokenListItem[]> {
  return listRunnerTokens(store.db);
}

export async function revokeRunnerTokenById(store: Store, id: string): Promise<void> {
  if (!(await revokeRunnerToken(store.db, id))) throw new AppError("not_found", "No live runner token with that id");
}

/** The live runner token a request's `Authorization: Bearer` carries; 401 otherwise. */
export async function authenticateRunnerToken(store: Store, req: Request): Promise<RunnerToken> {
  const token = bearerToken(req);
  if (!token?.startsWith(TOKEN_PREFIX.runner))
    throw new AppError("unauthorized", "Send a runner token: Authorization: Bearer rst_runner_…");
  const row = await getLiveRunnerTokenByHash(store.db, hashToken(token));
  if (!row) throw new AppError("unauthorized", "This runner token is unknown or was revoked");
  return row;
}

/** Whether the runner token with this id exists and is not revoked (a job token is good only while its runner's token is). */
export async function runnerTokenIsLive(store: Store, id: string): Promise<boolean> {
  return isUuid(id) && (await isRunnerTokenLive(store.db, id));
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}
