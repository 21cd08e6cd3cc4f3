import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { preload } from "react-dom";
import { AccessDenied } from "@/components/layout/access-denied";
import { ReviewPage } from "@/components/review/review-page";
import { requireGradingAccess } from "@/server/gradings/grading-access";
import { getCurrentUser } from "@/server/auth/session";
import { getStore } from "@/server/store";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Review" };

/**
 * The review page of a grading: staff and the paper's authors (read-only) see it, a grader when
 * the grading is assigned to them. Signed out: the sign-in page; no grading: 404.
 */
export default async function GradingReviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ gradingId: string }>;
  searchParams: Promise<{ leaf?: string | string[] }>;
}) {
  const { gradingId } = await params;
  const { leaf } = await searchParams;
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(`/gradings/${gradingId}`)}`);
  const store = await getStore();
  try {
    await requireGradingAccess(store, user, gradingId, "view");
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") notFound();
    if (err instanceof AppError && err.code === "forbidden") return <AccessDenied reason={err.message} />;
    throw err;
  }
  // The grading loads while the page's scripts do (the page's first fetch of this URL takes this response).
  preload(`/api/gradings/${encodeURIComponent(gradingId)}`, { as: "fetch", crossOrigin: "anonymous" });
  // `?leaf=<key>` opens the page on that node (links from elsewhere: a disagreement, a queue).
  return <ReviewPage gradingId={gradingId} initialKey={typeof leaf === "string" ? leaf : null} />;
}
