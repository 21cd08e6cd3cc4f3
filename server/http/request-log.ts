import crypto from "node:crypto";

/** An `x-request-id` a proxy or client sent, kept when it is a plain token (no spaces, no markup, 8–128 characters). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The request's id: the incoming `x-request-id` when sane (a proxy's, so its logs and ours match), else a new UUID. */
export function requestIdOf(incoming: string | null): string {
  return incoming !== null && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/**
 * The route's pattern, as its folder names it (`/api/papers/[paperId]/gradings`), from the path and
 * the params Next resolved: each segment that is a param's value becomes `[name]`. Metrics and logs
 * group by it, so an id never becomes a label of its own.
 */
export function routePattern(
  pathname: string,
  params: Readonly<Record<string, string | string[]>> | undefined,
): string {
  const byValue = new Map<string, string>();
  const catchAll = new Map<string, string>();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (Array.isArray(value)) value.forEach((v) => catchAll.set(v, name));
    else byValue.set(value, name);
  }
  const out: string[] = [];
  for (const segment of pathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      decoded = segment;
    }
    const name = byValue.get(decoded);
    if (segment !== "" && name !== undefined) {
      out.push(`[${name}]`);
      byValue.delete(decoded); // each param names one segment
    } else if (segment !== "" && catchAll.has(decoded)) {
      const all = `[...${catchAll.get(decoded)}]`;
      if (out.at(-1) !== all) out.push(all);
    } else out.push(segment);
  }
  return out.join("/");
}
