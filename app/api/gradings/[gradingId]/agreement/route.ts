import { requireFullVisibility, requireGradingAccess } from "@/server/gradings/grading-access";
import { apiRoute } from "@/server/http/route";
import { readGradingAgreement } from "@/server/reviews/grading-agreement";

type Params = { gradingId: string };

/**
 * Agreement on the grading's leaves (Cohen's κ and F1, overall and per task category): its
 * verdicts against each person who reviewed it, and person against person where two reviewed the
 * same leaves. Whoever reads the grading in full (people's scores next to verdicts give the verdicts away).
 */
export const GET = apiRoute<Params>({}, async ({ store, user, params }) => {
  const grant = await requireGradingAccess(store, user, params.gradingId, "view");
  await requireFullVisibility(grant, "see its agreement");
  return readGradingAgreement(store, grant.grading);
});
