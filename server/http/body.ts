import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** Reads a request body as text, refusing it (413) past `maxBytes` without buffering the rest. */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) throw tooLarge(declared, maxBytes);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(size, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(size: number, maxBytes: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is ${formatBytes(size)}${size >= maxBytes ? "+" : ""}; the limit is ${formatBytes(maxBytes)}`,
  );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Parses a JSON body against a zod schema; bad JSON and bad fields are 400s that say where. */
export async function parseJsonBody<S extends z.ZodType>(req: Request, schema: S, maxBytes = 4_000_000): Promise<z.output<S>> {
  const text = await readBodyText(req, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AppError("bad_request", `The request body is not valid JSON: ${(err as Error).message}`);
  }
  return schema.parse(value);
}
