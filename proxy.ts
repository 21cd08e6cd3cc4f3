import { NextResponse, type NextRequest } from "next/server";
import { LEADERBOARD_MAX_STALE_MS } from "@/lib/leaderboard/freshness";
import { PublicPageCache, type PageCopy } from "@/server/http/public-page-cache";
import { log } from "@/server/observability/log";

/**
 * The public leaderboard's page, for signed-out visitors, from a copy at most
 * `LEADERBOARD_MAX_STALE_MS` old (server/http/public-page-cache.ts says why). Everything else goes
 * to Next.js as it came: a request with a session cookie (a member's board differs), a client-side
 * navigation or prefetch (they ask for the RSC payload, not HTML), anything but a GET of a document.
 *
 * A copy is made by asking this same server for the page, without cookies, with a header only this
 * process knows (so the proxy lets that request through). The copy lives in this process: the
 * studio runs on Node.js (`next start`), where the proxy shares the server's process.
 */
export const config = { matcher: ["/leaderboard"] };

const cache = new PublicPageCache({ ttlMs: LEADERBOARD_MAX_STALE_MS, capacity: 64, maxChars: 2_000_000 });
const RENDER_HEADER = "x-studio-page-render";
const renderToken = crypto.randomUUID();

/** Headers of a copy that belong to the one answer that carried them, or describe its encoding on the wire. */
const NOT_COPIED = new Set([
  "set-cookie",
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "x-request-id",
]);

export async function proxy(req: NextRequest): Promise<NextResponse> {
  // `next start` records its own address here on listening; without it there is no copy to make.
  const origin = process.env.__NEXT_PRIVATE_ORIGIN;
  if (!origin || !isSignedOutDocumentRequest(req)) return NextResponse.next();
  const path = req.nextUrl.pathname + req.nextUrl.search;
  let copy;
  try {
    copy = await cache.get(path, () => render(new URL(path, origin)));
  } catch (err) {
    // This server could not be asked for its own page (the address it listens on is not one it can
    // reach itself): the visitor's request is rendered as it came, as a member's is.
    log.warn({ err, origin }, "the public page's copy could not be made; rendering it per request");
    return NextResponse.next();
  }
  const { page, fresh } = copy;
  const headers = new Headers(page.headers);
  headers.set("x-page-cache", fresh ? "hit" : "miss");
  return new NextResponse(page.body, { status: page.status, headers });
}

function isSignedOutDocumentRequest(req: NextRequest): boolean {
  if (req.method !== "GET") return false;
  if (req.headers.get(RENDER_HEADER) === renderToken) return false;
  // A document, as a browser asks for one. Not the router's fetch of the RSC payload on a client-side
  // navigation or prefetch (it accepts `*/*`): Next.js hides its RSC headers and `_rsc` from a proxy.
  if (!req.headers.get("accept")?.includes("text/html")) return false;
  // next-auth's session cookie (`authjs.session-token`, `__Secure-…` over https, `.0`, `.1` when
  // chunked): any of them and the page is the member's, rendered for them.
  return !req.cookies.getAll().some((c) => c.name.includes("session-token"));
}

async function render(url: URL): Promise<Omit<PageCopy, "at">> {
  const res = await fetch(url, {
    headers: { [RENDER_HEADER]: renderToken, "accept-encoding": "identity" },
    redirect: "manual",
  });
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (!NOT_COPIED.has(name)) headers.push([name, value]);
  });
  return { status: res.status, headers, body: await res.text() };
}
