import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface Session {
    user: { id: string; email?: string | null; name?: string | null };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    /** The `user_sessions` row of this sign-in (server/auth/sessions.ts). */
    sid?: string;
  }
}
