import "server-only";
import path from "node:path";
import { defaultDataDir } from "@/db/client";
import { readServerEnv, type ServerEnv } from "@/lib/env";
import type { BlobStore } from "./blob-store";
import { LocalBlobStore } from "./local-blob-store";
import { S3BlobStore } from "./s3-blob-store";

/** The blob store the environment names: S3 when S3_ENDPOINT and S3_BUCKET are set, else a directory (BLOB_DIR, default <DATA_DIR>/blobs). */
export function blobStoreFromEnv(env: ServerEnv = readServerEnv()): BlobStore {
  if (env.S3_ENDPOINT && env.S3_BUCKET) {
    return new S3BlobStore({
      endpoint: env.S3_ENDPOINT,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION ?? "us-east-1",
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    });
  }
  if (env.S3_ENDPOINT || env.S3_BUCKET) {
    throw new Error(
      `Invalid environment: S3_ENDPOINT and S3_BUCKET go together (only ${env.S3_ENDPOINT ? "S3_ENDPOINT" : "S3_BUCKET"} is set)`,
    );
  }
  return new LocalBlobStore(
    path.resolve(/*turbopackIgnore: true*/ env.BLOB_DIR ?? path.join(env.DATA_DIR ?? defaultDataDir(), "blobs")),
  );
}

const globalForBlobs = globalThis as unknown as { __rubricStudioBlobStore?: BlobStore };

/** The process's blob store, made from the environment on first use (tests may set it first). */
export function getBlobStore(): BlobStore {
  globalForBlobs.__rubricStudioBlobStore ??= blobStoreFromEnv();
  return globalForBlobs.__rubricStudioBlobStore;
}
