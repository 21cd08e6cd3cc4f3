import "server-only";
import fs from "node:fs";
import { Readable } from "node:stream";
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { hashFile, isSha256, type BlobStore } from "./blob-store";
import { noSuchBlob } from "./local-blob-store";

export interface S3BlobStoreOptions {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/**
 * Blobs in an S3-compatible bucket (MinIO, Ceph, R2, AWS), at `blobs/<sha256>`. The file is hashed
 * first (its name is its hash), a HEAD skips what is already there, and the upload streams the file
 * with its length: a multi-gigabyte archive never sits in memory.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      // Path-style URLs (`endpoint/bucket/key`): what self-hosted stores answer without DNS per bucket.
      forcePathStyle: true,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: streamed aws-chunked trailers are unknown to many S3-compatible stores.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  get location(): string {
    return `${this.options.endpoint.replace(/\/+$/, "")}/${this.options.bucket}`;
  }

  async putFile(filePath: string): Promise<{ sha256: string; bytes: number }> {
    const { sha256, bytes } = await hashFile(filePath);
    if (await this.has(sha256)) return { sha256, bytes };
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: keyOf(sha256),
        Body: fs.createReadStream(filePath),
        ContentLength: bytes,
        ContentType: "application/octet-stream",
      }),
    );
    return { sha256, bytes };
  }

  async open(sha256: string): Promise<Readable> {
    if (!isSha256(sha256)) throw noSuchBlob(sha256);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: keyOf(sha256) }));
      if (!(answer.Body instanceof Readable)) throw new Error(`S3 answered no stream for blob ${sha256}`);
      return answer.Body;
    } catch (err) {
      if (isNotFound(err)) throw noSuchBlob(sha256);
      throw err;
    }
  }

  async has(sha256: string): Promise<boolean> {
    if (!isSha256(sha256)) return false;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: keyOf(sha256) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }
}

function keyOf(sha256: string): string {
  return `blobs/${sha256}`;
}

function isNotFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.$metadata.httpStatusCode === 404 || err.name === "NoSuchKey" || err.name === "NotFound")
  );
}
