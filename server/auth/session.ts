import "server-only";
import { getToken } from "next-auth/jwt";
import { headers } from "next/headers";
import { getDb } from "@/db/client";
import { getUserWithPaperAccess, type SessionRef } from "@/db/queries/papers";
import type { Paper, PaperRole, User } from "@/db/schema";
import { sessionRefOf } from "./sessions";
import { getAuthSecret } from "./secret";

export type { SessionRef };

/** Decrypted session cookies, by the cookie header that carried them (see readSession). */
const decoded = new Map<string, { session: SessionRef; until: number }>();
const DECODED_MAX = 1_000;
const DECODED_TTL_MS = 60_000;

/**
 * The session a request's cookie names: the user and the `user_sessions` row it was issued with
 * (see server/auth/sessions.ts). Whether that session is still live is the database's answer,
 * read with the user on every request (`getUserWithPaperAccess`); a cookie from before sessions
 * had rows names none, and is signed out.
 *
 * Only the cookie is decrypted: `auth()` also re-issues it (decrypt, then encrypt again), which
 * doubled the cost of every editor operation. A decrypted cookie is remembered for a minute (never
 * past the token's expiry): an editor sends many requests with the same cookie, and decryption was
 * a sixth of an operation's server time. Revocation is unaffected: the row is read every time.
 */
async function readSession(requestHeaders: Headers, secureCookie: boolean): Promise<SessionRef | null> {
  const cookie = requestHeaders.get("cookie") ?? "";
  const now = Date.now();
  const hit = cookie ? decoded.get(cookie) : undefined;
  if (hit && hit.until > now) return hit.session;
  const token = await getToken({ req: { headers: requestHeaders }, secret: getAuthSecret(), secureCookie });
  const session = sessionRefOf(token?.uid, token?.sid);
  if (!session) return null;
  if (cookie) {
    if (decoded.size >= DECODED_MAX) decoded.clear();
    const expires = typeof token?.exp === "number" ? token.exp * 1000 : now + DECODED_TTL_MS;
    decoded.set(cookie, { session, until: Math.min(expires, now + DECODED_TTL_MS) });
  }
  return session;
}

/** The session of an API request (not yet checked against the database: apiRoute does that). */
export function getRequestSession(req: Request): Promise<SessionRef | null> {
  return readSession(req.headers, new URL(req.url).protocol === "https:");
}

/**
 * For pages: the signed-in user of a live session, and (with `paperId`) the paper and the user's
 * membership, read in one query like the API's. Null when signed out, revoked, expired or disabled.
 */
export async function getCurrentAccess(
  paperId?: string,
): Promise<{ user: User; paper: Paper | null; membership: PaperRole | null } | null> {
  const requestHeaders = await headers();
  // Pages know the scheme the way next-auth does (it names the cookie after it).
  const session = await readSession(requestHeaders, requestHeaders.get("x-forwarded-proto") === "https");
  if (!session) return null;
  const { db } = await getDb();
  return getUserWithPaperAccess(db, session, paperId);
}

/** The signed-in user of a live session, read fresh on every request (a removed user or a changed staff flag takes effect at once). */
export async function getCurrentUser(): Promise<User | null> {
  return (await getCurrentAccess())?.user ?? null;
}
