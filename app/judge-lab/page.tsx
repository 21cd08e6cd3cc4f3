import { JudgeLabPage } from "@/components/judge-lab/judge-lab-page";
import { AccessDenied } from "@/components/layout/access-denied";
import { requireStaffPage } from "@/server/auth/page-access";

export const metadata = { title: "Judge lab" };

export default async function JudgeLabRoute() {
  const staff = await requireStaffPage("/judge-lab");
  if (!staff) return <AccessDenied reason="The judge lab is for benchmark staff." />;
  return <JudgeLabPage />;
}
