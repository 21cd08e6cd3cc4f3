import { z } from "zod";
import { apiRoute, requireSession } from "@/server/http/route";
import { signOutEverywhere } from "@/server/auth/sessions";

type Params = { userId: string };

/** Staff sign a user out everywhere: every session of theirs ends at once, open streams too, and every API token. From a browser session only. */
export const DELETE = apiRoute<Params>({ staff: true }, async ({ store, params, sessionId }) => {
  requireSession(sessionId);
  const userId = z.uuid("must be a user id").parse(params.userId);
  return signOutEverywhere(store, userId);
});
