import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { listReviewQueue } from "@/server/reviews/review-queue";
import { AppError } from "@/lib/errors";

const querySchema = z.object({ all: z.enum(["1"], { error: "must be 1" }).optional() });

/** The signed-in user's review queue with progress; `?all=1` every grader's assignments (staff). */
export const GET = apiRoute<Record<string, never>>({}, async ({ req, store, user }) => {
  const query = querySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  if (query.all && !user.isStaff) throw new AppError("forbidden", "Only staff see every grader's assignments");
  return { assignments: await listReviewQueue(store, query.all ? {} : { userId: user.id }) };
});
