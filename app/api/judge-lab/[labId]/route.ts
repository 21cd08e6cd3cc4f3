import { apiRoute } from "@/server/http/route";
import { readJudgeLab } from "@/server/judge/lab/read-judge-lab";

/** A lab's progress and its table: per configuration F1 overall and per category, cost and time per paper. */
export const GET = apiRoute<{ labId: string }>({ staff: true }, async ({ params, store }) =>
  readJudgeLab(store, params.labId),
);
