import { requireGradingAccess } from "@/server/gradings/grading-access";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { clearUnsureFlag, flagLeafUnsure } from "@/server/reviews/unsure-flags";
import { unsureClearSchema, unsureFlagSchema } from "@/lib/review/schemas";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { gradingId: string };

/**
 * Flags a leaf "unsure" with a note (staff, and graders on their assigned leaves): the leaf stays
 * unreviewed and shows as flagged. Answers the leaf's flags.
 */
export const POST = apiRoute<Params>({}, async ({ req, store, user, params }) => {
  const access = await requireGradingAccess(store, user, params.gradingId, "review");
  const body = await parseJsonBody(req, unsureFlagSchema, 16 * 1024);
  const flags = await flagLeafUnsure(store, {
    gradingId: access.grading.id,
    userId: user.id,
    ...body,
    visibility: await access.visibility(),
  });
  return jsonAnswer({ flags }, { status: 201 });
});

/** Clears a flag: one's own (`?nodeKey=`), or staff another reviewer's (`&userId=`). Answers the leaf's flags. */
export const DELETE = apiRoute<Params>({}, async ({ req, store, user, params }) => {
  const access = await requireGradingAccess(store, user, params.gradingId, "review");
  const query = unsureClearSchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const flags = await clearUnsureFlag(store, {
    gradingId: access.grading.id,
    nodeKey: query.nodeKey,
    userId: user.id,
    flagOf: query.userId ?? user.id,
    mayClearOthers: access.role === "staff",
    visibility: await access.visibility(),
  });
  return { flags };
});
