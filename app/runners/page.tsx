import { RunnersPage } from "@/components/jobs/runners-page";
import { AccessDenied } from "@/components/layout/access-denied";
import { requireStaffPage } from "@/server/auth/page-access";

export const metadata = { title: "Runners" };

export default async function RunnersRoute() {
  const staff = await requireStaffPage("/runners");
  if (!staff) return <AccessDenied reason="Runners and their tokens are for benchmark staff." />;
  return <RunnersPage />;
}
