import type { Provider } from "next-auth/providers";
import GitHub from "next-auth/providers/github";
import { readServerEnv } from "@/lib/env";

export interface OAuthProviderInfo {
  id: string;
  name: string;
}

/** GitHub and a generic OIDC provider, each switched on by its environment variables. */
export function oauthProviders(): { providers: Provider[]; info: OAuthProviderInfo[] } {
  const env = readServerEnv();
  const providers: Provider[] = [];
  const info: OAuthProviderInfo[] = [];
  if (env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET) {
    providers.push(GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET }));
    info.push({ id: "github", name: "GitHub" });
  }
  if (env.AUTH_OIDC_ISSUER && env.AUTH_OIDC_ID && env.AUTH_OIDC_SECRET) {
    const name = env.AUTH_OIDC_NAME || "Single sign-on";
    providers.push({
      id: "oidc",
      name,
      type: "oidc",
      issuer: env.AUTH_OIDC_ISSUER,
      clientId: env.AUTH_OIDC_ID,
      clientSecret: env.AUTH_OIDC_SECRET,
    });
    info.push({ id: "oidc", name });
  }
  return { providers, info };
}
