import { apiRoute } from "@/server/http/route";
import { revokeOwnApiToken } from "@/server/auth/api-tokens";

/** Revokes one of the caller's own tokens (404 for anyone else's). */
export const DELETE = apiRoute<{ tokenId: string }>({}, async ({ store, user, params }) => {
  await revokeOwnApiToken(store, { userId: user.id, tokenId: params.tokenId });
  return { revoked: true };
});
