import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { setDisabled } from "@/server/users/set-disabled";

type Params = { userId: string };

/** Staff disable a user: every session of theirs ends at once (open streams too), and sign-in is refused. */
export const POST = apiRoute<Params>({ staff: true }, async ({ store, params, user }) => {
  const userId = z.uuid("must be a user id").parse(params.userId);
  return setDisabled(store, { userId, disabled: true, by: user.id });
});
