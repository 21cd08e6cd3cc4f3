import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "../client";
import { blobs, type Blob } from "../schema";

/** Records a stored blob; a blob recorded before stays as it was (content-addressed: same bytes). */
export async function insertBlob(db: Executor, blob: { sha256: string; bytes: number }): Promise<void> {
  await db
    .insert(blobs)
    .values({ sha256: blob.sha256, bytes: blob.bytes })
    .onConflictDoNothing({ target: blobs.sha256 });
}

export async function getBlobBySha256(db: Executor, sha256: string): Promise<Blob | null> {
  const [row] = await db.select().from(blobs).where(eq(blobs.sha256, sha256)).limit(1);
  return row ?? null;
}
