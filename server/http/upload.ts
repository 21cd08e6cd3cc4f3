import "server-only";
import { formatBytes } from "@/lib/bytes";
import { readBodyBytes } from "@/server/http/body";
import { AppError } from "@/lib/errors";

/**
 * Which kind of upload `req` carries: `json` for `application/json`, `multipart` for
 * `multipart/form-data`; any other type is a 415 that names `what` ("the rubric", "the grading").
 */
export function uploadKind(req: Request, what: string): "json" | "multipart" {
  const type = req.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return "json";
  if (type.startsWith("multipart/form-data")) return "multipart";
  throw new AppError(
    "unsupported_media_type",
    `Send ${what} as application/json or as multipart/form-data, not "${type || "no content type"}"`,
  );
}

/**
 * The multipart form of `req`: a 413 once the body passes `maxBytes` (declared or counted while
 * reading, chunked uploads included), a 400 when it cannot be read.
 */
export async function readMultipartForm(req: Request, maxBytes: number): Promise<FormData> {
  const bytes = await readBodyBytes(req, maxBytes);
  try {
    // The bounded bytes, parsed by the platform's multipart reader (it needs the boundary from the type).
    return await new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw new AppError("bad_request", "The multipart form could not be read");
  }
}

/** A 413 when the form entry at `path` is over `maxBytes`; `label` names it in the message ("The graded file", "rubric.json"). */
export function assertEntrySize(value: FormDataEntryValue, maxBytes: number, label: string, path: string): void {
  const size = typeof value === "string" ? Buffer.byteLength(value) : value.size; // a text field: its UTF-8 length
  if (size > maxBytes) {
    throw new AppError("payload_too_large", `${label} is ${formatBytes(size)}; the limit is ${formatBytes(maxBytes)}`, [
      { path, message: `must be at most ${formatBytes(maxBytes)}` },
    ]);
  }
}
