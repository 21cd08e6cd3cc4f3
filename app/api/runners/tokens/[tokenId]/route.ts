import { AppError } from "@/lib/errors";
import { apiRoute } from "@/server/http/route";
import { revokeRunnerTokenById } from "@/server/runners/runner-tokens";
import { isUuid } from "@/lib/uuid";

/** Revokes a runner token: its runners' next claim or heartbeat is refused. */
export const DELETE = apiRoute<{ tokenId: string }>({ staff: true }, async ({ params, store }) => {
  if (!isUuid(params.tokenId)) throw new AppError("not_found", "No live runner token with that id");
  await revokeRunnerTokenById(store, params.tokenId);
  return { revoked: true };
});
