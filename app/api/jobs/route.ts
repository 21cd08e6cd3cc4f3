import { z } from "zod";
import { JOB_KINDS, JOB_STATUSES } from "@/lib/jobs/states";
import { apiRoute } from "@/server/http/route";
import { listJobsForStaff } from "@/server/jobs/list-jobs";

const querySchema = z.object({
  status: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",") : []))
    .pipe(z.array(z.enum(JOB_STATUSES, { error: `must be a comma-separated list of ${JOB_STATUSES.join(", ")}` }))),
  kind: z.enum(JOB_KINDS, { error: `must be one of ${JOB_KINDS.join(", ")}` }).optional(),
  paper: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** The queue for /jobs (staff): depth per kind, and jobs newest first with filters. */
export const GET = apiRoute({ staff: true }, async ({ req, store }) => {
  const q = querySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
  return listJobsForStaff(store, { statuses: q.status, kind: q.kind, paperId: q.paper, limit: q.limit });
});
