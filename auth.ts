import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { authConfig } from "./auth.config";
import { getDb } from "./db/client";
import { ensureUserByEmail, getUserByEmail } from "./db/queries/users";
import { verifyPassword } from "./server/auth/password";
import { oauthProviders } from "./server/auth/providers";
import { getAuthSecret } from "./server/auth/secret";

const credentialsSchema = z.object({ email: z.email(), password: z.string().min(1).max(1000) });

class InvalidCredentials extends CredentialsSignin {
  code = "invalid_credentials";
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
      async authorize(raw) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) throw new InvalidCredentials();
        const { db } = await getDb();
        const user = await getUserByEmail(db, parsed.data.email);
        // Verify even without a user so that timing does not tell which emails exist.
        const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, parsed.data.password);
        if (!user?.passwordHash || !ok) throw new InvalidCredentials();
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
          const { db } = await getDb();
          token.uid = (await ensureUserByEmail(db, user.email, user.name)).id;
        }
      }
      return token;
    },
  },
}));

// argon2id hash of a random string, used to spend the same time on unknown emails.
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$l9TvX1lZZD5ovOE1Z3YQLA$nVpbnkJAK04nnJNR8vMO/rJMjkyTyB8/VkvoIxMbbjY";
