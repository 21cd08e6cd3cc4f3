import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { authConfig } from "./auth.config";
import { oauthProviders } from "./server/auth/providers";
import { getAuthSecret } from "./server/auth/secret";
import { getStore } from "./server/store";
import { clientAddress } from "./server/auth/throttle";
import { signInWithPassword, userForIdentity } from "./server/users/sign-in";
import { tooManyAttemptsCode } from "./lib/auth/sign-in-throttle";
import { endSession, isSessionLive, sessionRefOf, startSession } from "./server/auth/sessions";

const credentialsSchema = z.object({ email: z.email(), password: z.string().min(1).max(1000) });

class InvalidCredentials extends CredentialsSignin {
  code = "invalid_credentials";
}

/** Too many failed sign-ins for the account or the address: the code carries the wait to the sign-in page. */
class TooManyAttempts extends CredentialsSignin {
  constructor(retryAfterSeconds: number) {
    super();
    this.code = tooManyAttemptsCode(retryAfterSeconds);
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  ...authConfig,
  secret: getAuthSecret(),
  logger: {
    // A wrong password is an answer, not a server error: keep it out of the error log.
    error(error) {
      // Class names are minified in the production build: match Auth.js's stable `type` instead.
      if ((error as { type?: string }).type === "CredentialsSignin") return;
      console.error(error);
    },
  },
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw, request) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) throw new InvalidCredentials();
        const result = await signInWithPassword(await getStore(), {
          ...parsed.data,
          address: clientAddress(request.headers),
        });
        if (!result.ok)
          throw result.retryAfterSeconds ? new TooManyAttempts(result.retryAfterSeconds) : new InvalidCredentials();
        const { user } = result;
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
    ...oauthProviders().providers,
  ],
  callbacks: {
    ...authConfig.callbacks,
    async jwt({ token, user, account }) {
      if (account && user) {
        if (account.provider === "credentials") {
          token.uid = user.id;
        } else {
          // GitHub/OIDC: the account is matched to a studio user by email (invites are by email).
          if (!user.email) throw new Error("The identity provider did not share an email address");
          token.uid = (await userForIdentity(await getStore(), user.email, user.name)).id;
        }
        // Each sign-in is a revocable session row; the cookie names it (server/auth/sessions.ts).
        if (!token.uid) throw new Error("The sign-in named no user");
        token.sid = await startSession(await getStore(), token.uid);
        return token;
      }
      // Any other read of the cookie through Auth.js (its /api/auth/session): a session that was
      // signed out, revoked or expired, or whose user is disabled, is signed out here too (null
      // clears the cookie). The studio's own routes check the same row in their one query.
      return (await isSessionLive(await getStore(), sessionRefOf(token.uid, token.sid))) ? token : null;
    },
  },
  events: {
    // Sign-out ends the session it came from: a copy of the cookie kept from before stops working.
    async signOut(message) {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (typeof sid === "string") await endSession(await getStore(), sid);
    },
  },
}));
