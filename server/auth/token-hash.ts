import "server-only";
import { createHash } from "node:crypto";

/** Tokens (runner and personal API tokens) are kept as their sha-256 only: the database never holds a usable one. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
