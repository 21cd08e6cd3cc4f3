import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { setDisabled } from "@/server/users/set-disabled";

type Params = { userId: string };

/** Staff enable a disabled user again: they may sign in afresh. */
export const POST = apiRoute<Params>({ staff: true }, async ({ store, params, user }) => {
  const userId = z.uuid("must be a user id").parse(params.userId);
  return setDisabled(store, { userId, disabled: false, by: user.id });
});
