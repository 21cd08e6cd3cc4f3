import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getAuthSecret } from "@/server/auth/secret";

/**
 * Seals a paper's secret for the database (AES-256-GCM): a database dump or backup alone gives no
 * secret. The key is derived from AUTH_SECRET (HKDF-SHA256), so there is no second key to keep; a
 * studio whose AUTH_SECRET changed can no longer open what was sealed before, and says so.
 *
 * Sealed text: `v1.` + base64url(iv | tag | ciphertext). The version names the scheme, so a later
 * one can be read beside it.
 */
const VERSION = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyFrom(authSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, Buffer.alloc(0), "paper-secrets", 32));
}

export function sealSecret(plain: string, authSecret: string = getAuthSecret()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFrom(authSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

/** The plain value; throws (naming no value) when the text was altered or sealed under another AUTH_SECRET. */
export function unsealSecret(sealed: string, authSecret: string = getAuthSecret()): string {
  if (!sealed.startsWith(VERSION)) throw new SealError("it is not sealed text of a known version");
  const bytes = Buffer.from(sealed.slice(VERSION.length), "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new SealError("it is too short");
  const decipher = createDecipheriv("aes-256-gcm", keyFrom(authSecret), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("it was altered, or sealed under another AUTH_SECRET");
  }
}

export class SealError extends Error {
  constructor(why: string) {
    super(`A sealed secret could not be opened: ${why}`);
    this.name = "SealError";
  }
}
