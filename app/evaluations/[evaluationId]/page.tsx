import type { Metadata } from "next";
import { EvaluationPage } from "@/components/evaluations/evaluation-page";
import { AccessDenied } from "@/components/layout/access-denied";
import { requireStaffPage } from "@/server/auth/page-access";

export const metadata: Metadata = { title: "Evaluation" };

/** An evaluation's matrix of papers × runs, live (staff). */
export default async function EvaluationRoute({ params }: { params: Promise<{ evaluationId: string }> }) {
  const { evaluationId } = await params;
  const staff = await requireStaffPage(`/evaluations/${evaluationId}`);
  if (!staff) return <AccessDenied reason="Evaluations are for benchmark staff." />;
  return <EvaluationPage evaluationId={evaluationId} />;
}
