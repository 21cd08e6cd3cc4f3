import "server-only";
import { formatBytes } from "@/server/http/body";
import { AppError } from "@/lib/errors";

/**
 * Which kind of upload `req` carries: `json` for `application/json`, `multipart` for
 * `multipart/form-data`; any other type is a 415 that names `what` ("the rubric", "the grading").
 */
export function uploadKind(req: Request, what: string): "json" | "multipart" {
  const type = req.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return "json";
  if (type.startsWith("multipart/form-data")) return "multipart";
  throw new AppError("unsupported_media_type", `Send ${what} as application/json or as multipart/form-data, not "${type || "no content type"}"`);
}

/** The multipart form of `req`: a 413 when its declared length is over `maxBytes`, a 400 when it cannot be read. */
export async function readMultipartForm(req: Request, maxBytes: number): Promise<FormData> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) {
    throw new AppError("payload_too_large", `The upload is ${formatBytes(declared)}; the limit is ${formatBytes(maxBytes)}`);
  }
  try {
    return await req.formData();
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
