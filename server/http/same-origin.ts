import "server-only";
import { AppError } from "@/lib/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses (403 `cross_origin`) a state-changing request that a browser sent from a page other
 * than the studio's own: another site, or another port or subdomain of this one (same-site, so
 * SameSite cookies ride along; a `text/plain` POST from there needs no CORS preflight).
 *
 * The rule, as Go's `http.CrossOriginProtection`: `Sec-Fetch-Site`, when sent, must be
 * `same-origin`; without it, an `Origin`, when sent, must be the studio's own origin (the Host
 * the request came to, or `X-Forwarded-Host` behind a proxy, as Auth.js's trustHost reads it).
 * Every browser sends at least one of them on a cross-origin POST, PUT, PATCH or DELETE (all send
 * Origin on those since 2020; Sec-Fetch-Site since 2023). A request with neither did not come
 * from a browser (curl, a script, the server tests): it carries no victim's cookies by accident,
 * so it is let through and checked like any other.
 */
export function assertSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) {
    if (site === "same-origin") return;
    throw crossOrigin(`the browser sent it with Sec-Fetch-Site: ${site}`);
  }
  const origin = req.headers.get("origin");
  if (origin === null) return;
  const own = ownHosts(req);
  const from = hostOf(origin);
  if (from !== null && own.includes(from)) return;
  throw crossOrigin(`it came from ${origin}, not from ${own[0] ?? "this host"}`);
}

function crossOrigin(why: string): AppError {
  return new AppError("cross_origin", `Refused a change sent from another origin: ${why}. Use the studio's own pages.`);
}

/** host[:port] of an Origin header; null for "null" (sandboxed frames, file pages) and junk. */
function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** The host[:port] the client addressed: X-Forwarded-Host (first entry) when a proxy set one, and Host. */
function ownHosts(req: Request): string[] {
  const forwarded = req.headers.get("x-forwarded-host")?.split(",")[0].trim().toLowerCase();
  const host = req.headers.get("host")?.trim().toLowerCase();
  return [forwarded, host].filter((h): h is string => !!h);
}
