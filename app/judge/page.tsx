import { JudgeConfigsPage } from "@/components/judge/judge-configs-page";
import { AccessDenied } from "@/components/layout/access-denied";
import { requireStaffPage } from "@/server/auth/page-access";

export const metadata = { title: "Judge" };

export default async function JudgeRoute() {
  const staff = await requireStaffPage("/judge");
  if (!staff) return <AccessDenied reason="Judge configurations are for benchmark staff." />;
  return <JudgeConfigsPage />;
}
