import { redirect } from "next/navigation";
import { ApiTokensPage } from "@/components/tokens/api-tokens-page";
import { getCurrentUser } from "@/server/auth/session";

export const metadata = { title: "API tokens" };

export default async function ApiTokensRoute() {
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent("/settings/tokens")}`);
  return <ApiTokensPage />;
}
