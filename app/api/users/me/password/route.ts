import { parseJsonBody } from "@/server/http/body";
import { apiRoute, requireSession } from "@/server/http/route";
import { clientAddress } from "@/server/auth/throttle";
import { changeOwnPassword } from "@/server/users/change-password";
import { passwordChangeSchema } from "@/lib/users/schemas";

/** Changes the caller's password (`{ currentPassword, newPassword }`): their other sessions and every API token end, this session goes on. */
export const PUT = apiRoute({}, async ({ req, store, user, sessionId }) => {
  const { currentPassword, newPassword } = await parseJsonBody(req, passwordChangeSchema);
  return changeOwnPassword(store, {
    email: user.email,
    sessionId: requireSession(sessionId),
    currentPassword,
    newPassword,
    address: clientAddress(req.headers),
  });
});
