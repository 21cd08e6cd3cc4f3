import { startJudgeLabSchema } from "@/lib/judge/lab/schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { listLabSubmissions } from "@/server/judge/lab/lab-submissions";
import { listJudgeLabs } from "@/server/judge/lab/read-judge-lab";
import { startJudgeLab } from "@/server/judge/lab/start-judge-lab";

/** The judge lab (staff): its labs, newest first, and the human-labelled submissions it can run on. */
export const GET = apiRoute({ staff: true }, async ({ store }) => ({
  labs: await listJudgeLabs(store),
  submissions: await listLabSubmissions(store),
}));

/** Starts a lab: one judge run per configuration × submission, none of them counted. */
export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  const body = await parseJsonBody(req, startJudgeLabSchema);
  return startJudgeLab(store, body, user.id);
});
