import "server-only";
import { NextResponse } from "next/server";

/**
 * The size from which a JSON answer is worth compressing (the `compression` package's own default
 * threshold). Next.js compresses every answer it sends, small ones too: it sends the headers before
 * the body, so that threshold never sees a length. For the editor's operation answer (tens of bytes)
 * gzip cost 2–3 ms of each request on the 2-core machine (a zlib stream made, flushed and ended:
 * two more writes to the socket) and saved nothing on the wire.
 */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * A JSON answer, as `NextResponse.json` makes it; one under `COMPRESS_FROM_BYTES` carries
 * `Cache-Control: no-transform`, which Next.js's compression honours by sending it as it is (and
 * which tells a proxy on the way to leave it alone too). It changes nothing else: no caching.
 */
export function jsonAnswer(body: unknown, init?: ResponseInit): NextResponse {
  const text = JSON.stringify(body);
  const headers = new Headers(init?.headers);
  // As Response.json: a content type the caller set is kept.
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  // A text has at least as many bytes as characters: a long one is not scanned for its byte count.
  if (text.length < COMPRESS_FROM_BYTES && Buffer.byteLength(text) < COMPRESS_FROM_BYTES) {
    const cacheControl = headers.get("cache-control");
    headers.set("cache-control", cacheControl ? `${cacheControl}, no-transform` : "no-transform");
  }
  return new NextResponse(text, { ...init, headers });
}
