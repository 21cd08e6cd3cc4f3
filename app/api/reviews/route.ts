import { z } from "zod";
import { listReviewQueue } from "@/db/queries/grading-reviews";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";

const querySchema = z.object({ all: z.enum(["1"], { error: "must be 1" }).optional() });

/** The signed-in user's review queue with progress; `?all=1` every grader's assignments (staff). */
export const GET = apiRoute<Record<string, never>>({}, async ({ req, db, user }) => {
  const query = querySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  if (query.all && !user.isStaff) throw new AppError("forbidden", "Only staff see every grader's assignments");
  return { assignments: await listReviewQueue(db, query.all ? {} : { userId: user.id }) };
});
