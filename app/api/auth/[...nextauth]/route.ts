import { NextRequest } from "next/server";
import { handlers } from "@/auth";
import { readBodyBytes } from "@/server/http/body";
import { errorResponse } from "@/server/http/route";
import { assertSameOrigin } from "@/server/http/same-origin";

export const { GET } = handlers;

// Sign-in, sign-out and session posts are a few hundred bytes of form or JSON.
const MAX_AUTH_BODY_BYTES = 64 * 1024;

/**
 * Auth.js reads a POST body whole (`req.text()`), before it even looks at the action, and anyone
 * may post here signed out: the body is read first with a small limit (413 past it) and handed on.
 * A provider's own callback may come from its site (an OIDC form_post); every other post must
 * come from the studio's pages (Auth.js's CSRF cookie can be planted from a same-site origin).
 */
export async function POST(req: NextRequest): Promise<Response> {
  try {
    if (!isProviderCallback(req)) assertSameOrigin(req);
    const body = await readBodyBytes(req, MAX_AUTH_BODY_BYTES);
    return await handlers.POST(
      new NextRequest(req.url, { method: "POST", headers: req.headers, body: new Uint8Array(body) }),
    );
  } catch (err) {
    return errorResponse(err);
  }
}

function isProviderCallback(req: NextRequest): boolean {
  const [action, provider] = req.nextUrl.pathname.split("/").slice(3); // /api/auth/<action>/<provider>
  return action === "callback" && provider !== undefined && provider !== "credentials";
}
