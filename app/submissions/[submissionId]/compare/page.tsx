import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AccessDenied } from "@/components/layout/access-denied";
import { CompareGradingsPage } from "@/components/review/compare-gradings-page";
import { AppError } from "@/lib/errors";
import { requireSubmissionAccess } from "@/server/access/submission-access";
import { getCurrentUser } from "@/server/auth/session";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Compare gradings" };

/** Two gradings of a submission leaf by leaf (`?a=&b=`): its paper's members and staff; each grading as `GET …/compare` allows. */
export default async function CompareGradingsRoute({
  params,
  searchParams,
}: {
  params: Promise<{ submissionId: string }>;
  searchParams: Promise<{ a?: string | string[]; b?: string | string[] }>;
}) {
  const { submissionId } = await params;
  const { a, b } = await searchParams;
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(`/submissions/${submissionId}/compare`)}`);
  try {
    await requireSubmissionAccess(await getStore(), user, submissionId, "view");
  } catch (e) {
    if (e instanceof AppError)
      return <AccessDenied reason="There is no such submission, or you are not a member of its paper." />;
    throw e;
  }
  return (
    <CompareGradingsPage
      submissionId={submissionId}
      initialA={typeof a === "string" ? a : null}
      initialB={typeof b === "string" ? b : null}
    />
  );
}
