import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AccessDenied } from "@/components/layout/access-denied";
import { SubmissionPage } from "@/components/submissions/submission-page";
import { AppError } from "@/lib/errors";
import { requireSubmissionAccess } from "@/server/access/submission-access";
import { getCurrentUser } from "@/server/auth/session";
import { getStore } from "@/server/store";

export const metadata: Metadata = { title: "Submission" };

/** A submission and its reproduction: staff and the paper's members. */
export default async function SubmissionRoute({ params }: { params: Promise<{ submissionId: string }> }) {
  const { submissionId } = await params;
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(`/submissions/${submissionId}`)}`);
  try {
    const { role } = await requireSubmissionAccess(await getStore(), user, submissionId, "view");
    return <SubmissionPage submissionId={submissionId} canManage={role === "staff"} />;
  } catch (e) {
    if (e instanceof AppError)
      return <AccessDenied reason="There is no such submission, or you are not a member of its paper." />;
    throw e;
  }
}
