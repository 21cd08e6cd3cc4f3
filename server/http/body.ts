import "server-only";
import { once } from "node:events";
import fs from "node:fs";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/lib/bytes";

/**
 * Reads a request body, refusing it (413) past `maxBytes`: at once when its declared length is
 * over, else as soon as the running count passes the limit, so at most `maxBytes` (plus one chunk)
 * is ever held whatever the client sends, with or without a Content-Length. The rest is never
 * read: the connection stays paused (the client has its 413 and stops) until the server's idle
 * timeout closes it. Closing it at once instead would reset it under the client's upload, and a
 * reset loses the 413 that was on its way. (A body refused for its declared length is untouched:
 * Node's server discards it after the answer, holding none of it.)
 */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of countedBody(req, maxBytes)) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return Buffer.concat(chunks, size);
}

/**
 * Streams a request body into a new file at `filePath`, counted as it goes and refused (413, the
 * file removed) past `maxBytes` as `readBodyBytes` refuses it: for uploads too large to hold in
 * memory. Answers the number of bytes written.
 */
export async function writeBodyToFile(req: Request, filePath: string, maxBytes: number): Promise<number> {
  const chunks = countedBody(req, maxBytes);
  // The declared length is checked before the file exists.
  const first = await chunks.next();
  const out = fs.createWriteStream(filePath, { flags: "wx" });
  // A failed write is thrown below (out.errored, end's callback), not as an unhandled 'error' event.
  out.on("error", () => {});
  let size = 0;
  try {
    for (let next = first; !next.done; next = await chunks.next()) {
      size += next.value.byteLength;
      if (out.errored) throw out.errored;
      if (!out.write(next.value)) await once(out, "drain");
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    return size;
  } catch (err) {
    out.destroy();
    await fs.promises.rm(filePath, { force: true });
    throw err;
  }
}

/**
 * The one counting reader of both: the body's chunks, refused (413) at once when its declared
 * length is over the limit, else as soon as the running count passes it. It stops pulling without
 * cancelling: a cancel destroys the socket before the 413 is sent.
 */
async function* countedBody(req: Request, maxBytes: number): AsyncGenerator<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) throw tooLarge(declared, maxBytes);
  if (!req.body) return;
  const reader = req.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
    if (size > maxBytes) {
      reader.releaseLock();
      throw tooLarge(size, maxBytes);
    }
    yield value;
  }
}

/** A request body as UTF-8 text, at most `maxBytes` (413 past it, see `readBodyBytes`). */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  return (await readBodyBytes(req, maxBytes)).toString("utf8");
}

function tooLarge(size: number, maxBytes: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is ${formatBytes(size)}${size >= maxBytes ? "+" : ""}; the limit is ${formatBytes(maxBytes)}`,
  );
}

/** `application/json` or a `+json` type, parameters (charset) aside. */
function isJsonType(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * Parses a JSON body against a zod schema; bad JSON and bad fields are 400s that say where. A
 * body must be declared JSON (415 otherwise): a page elsewhere can post `text/plain`, or a Blob
 * with no type, without the browser asking the studio first (a CORS "simple" request); it can
 * never post `application/json` that way. An empty body is simply not JSON (400).
 */
export async function parseJsonBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  maxBytes = 4_000_000,
): Promise<z.output<S>> {
  const text = await readBodyText(req, maxBytes);
  const type = req.headers.get("content-type");
  if (text !== "" && !isJsonType(type)) {
    throw new AppError(
      "unsupported_media_type",
      `Send the request body as application/json, not "${type || "no content type"}"`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AppError("bad_request", `The request body is not valid JSON: ${(err as Error).message}`);
  }
  return schema.parse(value);
}
