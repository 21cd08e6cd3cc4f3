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
  // Only the access check's refusal is caught: the page itself renders outside it (JSX in a try renders later).
  const access = await requireSubmissionAccess(await getStore(), user, submissionId, "view").catch((e: unknown) => {
    if (e instanceof AppError) return null;
    throw e;
  });
  if (!access) return <AccessDenied reason="There is no such submission, or you are not a member of its paper." />;
  return <SubmissionPage submissionId={submissionId} canManage={access.role === "staff"} />;
}
