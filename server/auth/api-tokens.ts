import "server-only";
import { randomBytes } from "node:crypto";
import type { Store } from "@/db/client";
import {
  getUserWithPaperAccessByApiToken,
  insertApiToken,
  listApiTokensByUserId,
  revokeApiToken,
  touchApiToken,
  type ApiTokenListItem,
} from "@/db/queries/api-tokens";
import type { Executor } from "@/db/client";
import { AppError } from "@/lib/errors";
import { TOKEN_PREFIX } from "@/lib/runner/protocol";
import { isUuid } from "@/lib/uuid";
import { hashToken } from "./token-hash";

export type { ApiTokenListItem };

/** How often a token's `last_used_at` is written: once a minute is enough to tell a live token from a stale one. */
const TOUCH_EVERY_S = 60;

/** A new personal API token of the user: the token is answered once, only its hash is kept. */
export async function createApiToken(
  store: Store,
  input: { userId: string; name: string },
): Promise<{ token: string; apiToken: ApiTokenListItem }> {
  const name = input.name.trim();
  if (!name) throw new AppError("bad_request", "A token needs a name", [{ path: "name", message: "is required" }]);
  const token = `${TOKEN_PREFIX.user}${randomBytes(32).toString("base64url")}`;
  const apiToken = await insertApiToken(store.db, { userId: input.userId, name, tokenHash: hashToken(token) });
  return { token, apiToken };
}

export function listApiTokens(store: Store, userId: string): Promise<ApiTokenListItem[]> {
  return listApiTokensByUserId(store.db, userId);
}

/** Revokes one of the user's own tokens; 404 for someone else's, a revoked one or an unknown id. */
export async function revokeOwnApiToken(store: Store, input: { userId: string; tokenId: string }): Promise<void> {
  if (!isUuid(input.tokenId) || !(await revokeApiToken(store.db, input)))
    throw new AppError("not_found", "You have no live API token with that id");
}

/** True for a token that claims to be a personal API token (`rst_user_…`): runner and job tokens are not. */
export function isApiToken(token: string): boolean {
  return token.startsWith(TOKEN_PREFIX.user);
}

/**
 * The user (and with `paperId` the paper and membership) a personal API token acts for, or null
 * when it is unknown, revoked or its user disabled. Its last use is recorded at most once a minute.
 */
export async function accessByApiToken(db: Executor, token: string, paperId: string | undefined) {
  const access = await getUserWithPaperAccessByApiToken(db, hashToken(token), paperId);
  if (!access) return null;
  const { lastUsedAt } = access.token;
  if (!lastUsedAt || Date.now() - lastUsedAt.getTime() >= TOUCH_EVERY_S * 1000)
    await touchApiToken(db, access.token.id, TOUCH_EVERY_S);
  return access;
}
