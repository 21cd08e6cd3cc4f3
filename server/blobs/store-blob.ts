import "server-only";
import type { Readable } from "node:stream";
import type { Store } from "@/db/client";
import { insertBlob } from "@/db/queries/blobs";
import { getBlobStore } from "./get-blob-store";

/**
 * Puts a file in the process's blob store and records it in `blobs` (the row a submission or a
 * job's outputs reference). The file is stored before the row exists, so a row always names bytes
 * that are there; a file stored twice is stored, and recorded, once.
 */
export async function storeBlob(
  store: Store,
  filePath: string,
  opts: { move?: boolean } = {},
): Promise<{ sha256: string; bytes: number }> {
  const blob = await getBlobStore().putFile(filePath, opts);
  await insertBlob(store.db, blob);
  return blob;
}

/** The bytes of a stored blob, as a stream; a 404 AppError when it is not in the store. */
export function openBlob(sha256: string): Promise<Readable> {
  return getBlobStore().open(sha256);
}
