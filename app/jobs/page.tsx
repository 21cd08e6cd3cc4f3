import { Suspense } from "react";
import { JobsPage } from "@/components/jobs/jobs-page";
import { AccessDenied } from "@/components/layout/access-denied";
import { requireStaffPage } from "@/server/auth/page-access";

export const metadata = { title: "Jobs" };

export default async function JobsRoute() {
  const staff = await requireStaffPage("/jobs");
  if (!staff) return <AccessDenied reason="The job queue is for benchmark staff." />;
  return (
    <Suspense>
      <JobsPage />
    </Suspense>
  );
}
