import "server-only";
import { getToken } from "next-auth/jwt";
import { auth } from "@/auth";
import { getDb } from "@/db/client";
import { getUserById } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { getAuthSecret } from "./secret";

/**
 * The signed-in user, read fresh from the database on every request so that a removed user or a
 * changed staff flag takes effect at once (the JWT only carries the user id).
 */
export async function getCurrentUser(): Promise<User | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const { db } = await getDb();
  return getUserById(db, id);
}

/** Decrypted session cookies, by the cookie header that carried them (see getSessionUserId). */
const decoded = new Map<string, { uid: string | null; until: number }>();
const DECODED_MAX = 1_000;
const DECODED_TTL_MS = 60_000;

/**
 * The signed-in user's id for an API request, read by decrypting the session cookie only. `auth()`
 * also re-issues the cookie (decrypt, then encrypt again), which doubled the cost of every editor
 * operation; pages still call `auth()`, which keeps rolling sessions alive.
 *
 * A decrypted cookie is remembered for a minute (never past the token's expiry): an editor sends
 * many requests with the same cookie, and decryption was a sixth of an operation's server time.
 * The user row is still read on every request, so a removed user loses access at once.
 */
export async function getSessionUserId(req: Request): Promise<string | null> {
  const cookie = req.headers.get("cookie") ?? "";
  const now = Date.now();
  const hit = cookie ? decoded.get(cookie) : undefined;
  if (hit && hit.until > now) return hit.uid;
  const token = await getToken({
    req,
    secret: getAuthSecret(),
    secureCookie: new URL(req.url).protocol === "https:",
  });
  const uid = typeof token?.uid === "string" ? token.uid : null;
  if (cookie && uid) {
    if (decoded.size >= DECODED_MAX) decoded.clear();
    const expires = typeof token?.exp === "number" ? token.exp * 1000 : now + DECODED_TTL_MS;
    decoded.set(cookie, { uid, until: Math.min(expires, now + DECODED_TTL_MS) });
  }
  return uid;
}
