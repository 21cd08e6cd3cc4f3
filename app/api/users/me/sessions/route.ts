import { apiRoute } from "@/server/http/route";
import { signOutEverywhere } from "@/server/users/sessions";

/** Signs the caller out everywhere, this session included (a lost laptop, a shared computer). */
export const DELETE = apiRoute({}, async ({ store, user }) => signOutEverywhere(store, user.id));
