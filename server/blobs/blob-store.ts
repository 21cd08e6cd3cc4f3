import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import type { Readable } from "node:stream";

/**
 * Where submissions and outputs are kept: content-addressed by sha-256, so a file stored twice is
 * stored once. A local directory by default, S3-compatible storage when configured
 * (`get-blob-store.ts`). Files go in and out as streams: an archive may be gigabytes.
 */
export interface BlobStore {
  /**
   * Stores the file (once per content) and says what it is. `move`: the caller is done with the
   * file (an upload's temporary copy), so a local store may take it by rename instead of copying.
   */
  putFile(filePath: string, opts?: { move?: boolean }): Promise<{ sha256: string; bytes: number }>;
  /** The stored bytes; a 404 AppError when there is no such blob. */
  open(sha256: string): Promise<Readable>;
  has(sha256: string): Promise<boolean>;
  /** Where the blobs are, for messages and logs. */
  readonly location: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** True for a blob's name: 64 lowercase hex digits (nothing else ever becomes a key or a path). */
export function isSha256(value: string): boolean {
  return SHA256.test(value);
}

/** The sha-256 and size of a file, read as a stream. */
export async function hashFile(filePath: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of fs.createReadStream(filePath)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}
