import { EvaluationsPage } from "@/components/evaluations/evaluations-page";
import { AccessDenied } from "@/components/layout/access-denied";
import { requireStaffPage } from "@/server/auth/page-access";
import { readDataSplits } from "@/server/papers/data-splits";

export const metadata = { title: "Evaluations" };

export default async function EvaluationsRoute() {
  const staff = await requireStaffPage("/evaluations");
  if (!staff) return <AccessDenied reason="Evaluations are for benchmark staff." />;
  return <EvaluationsPage splits={readDataSplits()} />;
}
