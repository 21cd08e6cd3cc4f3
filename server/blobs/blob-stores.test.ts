import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/errors";
import type { BlobStore } from "./blob-store";
import { blobStoreFromEnv } from "./get-blob-store";
import { LocalBlobStore } from "./local-blob-store";
import { S3BlobStore } from "./s3-blob-store";

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-blobs-"));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function writeTemp(content: Buffer | string): string {
  const file = path.join(tempDir(), "file.bin");
  fs.writeFileSync(file, content);
  return file;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const sha = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** What every blob store does, whatever keeps the bytes. */
function behavesLikeABlobStore(makeStore: () => BlobStore) {
  it("stores a file under its sha-256, reads it back, and stores the same bytes once", async () => {
    const store = makeStore();
    // Larger than a stream's chunk, with every byte value, so a truncation or re-encoding shows.
    const data = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.alloc(200_000, 7)]);
    const first = await store.putFile(writeTemp(data));
    expect(first).toEqual({ sha256: sha(data), bytes: data.length });
    expect(await store.has(first.sha256)).toBe(true);
    expect((await readAll(await store.open(first.sha256))).equals(data)).toBe(true);
    const again = await store.putFile(writeTemp(data));
    expect(again).toEqual(first);
  });

  it("answers 404 for a blob it does not hold, and for a name that is not a sha-256", async () => {
    const store = makeStore();
    expect(await store.has(sha("never stored"))).toBe(false);
    for (const name of [sha("never stored"), "../../etc/passwd", "ABC"]) {
      const err = await store.open(name).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(404);
    }
    expect(await store.has("../x")).toBe(false);
  });

  it("stores an empty file", async () => {
    const store = makeStore();
    const blob = await store.putFile(writeTemp(""));
    expect(blob).toEqual({ sha256: sha(""), bytes: 0 });
    expect((await readAll(await store.open(blob.sha256))).length).toBe(0);
  });
}

describe("LocalBlobStore", () => {
  behavesLikeABlobStore(() => new LocalBlobStore(tempDir()));

  it("keeps one file per content at <aa>/<sha256>, and leaves no temporary file behind", async () => {
    const dir = tempDir();
    const store = new LocalBlobStore(dir);
    const blob = await store.putFile(writeTemp("hello"));
    await store.putFile(writeTemp("hello"));
    expect(fs.readdirSync(dir)).toEqual([blob.sha256.slice(0, 2)]);
    expect(fs.readdirSync(path.join(dir, blob.sha256.slice(0, 2)))).toEqual([blob.sha256]);
  });

  it("takes a disposable file by rename (move), and leaves the source of a content it already holds", async () => {
    const dir = tempDir();
    const store = new LocalBlobStore(dir);
    const source = writeTemp("moved bytes");
    const inode = fs.statSync(source).ino;
    const blob = await store.putFile(source, { move: true });
    expect(fs.existsSync(source)).toBe(false);
    const stored = path.join(dir, blob.sha256.slice(0, 2), blob.sha256);
    expect(fs.statSync(stored).ino).toBe(inode);
    expect(fs.readFileSync(stored, "utf8")).toBe("moved bytes");
    const again = writeTemp("moved bytes");
    expect(await store.putFile(again, { move: true })).toEqual(blob);
    expect(fs.readFileSync(stored, "utf8")).toBe("moved bytes");
  });

  it("writes atomically: a failed copy leaves neither the blob nor its temporary file", async () => {
    const dir = tempDir();
    const store = new LocalBlobStore(dir);
    // A directory cannot be read as a file: the copy fails after the temporary file was opened.
    const err = await store.putFile(tempDir()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("never shows a reader half a blob: the final name appears only once the bytes are all there", async () => {
    const dir = tempDir();
    const store = new LocalBlobStore(dir);
    const data = Buffer.alloc(8 * 1024 * 1024, 1);
    const target = path.join(dir, sha(data).slice(0, 2), sha(data));
    const seen: number[] = [];
    const watcher = setInterval(() => {
      if (fs.existsSync(target)) seen.push(fs.statSync(target).size);
    }, 1);
    await store.putFile(writeTemp(data));
    clearInterval(watcher);
    expect(seen.every((size) => size === data.length)).toBe(true);
    expect(fs.statSync(target).size).toBe(data.length);
  });
});

describe("blobStoreFromEnv", () => {
  it("is a directory under DATA_DIR by default, BLOB_DIR when set, S3 when the endpoint and bucket are set", () => {
    expect(blobStoreFromEnv({ DATA_DIR: "/srv/studio" }).location).toBe(path.resolve("/srv/studio/blobs"));
    expect(blobStoreFromEnv({ BLOB_DIR: "/srv/blobs" }).location).toBe(path.resolve("/srv/blobs"));
    const s3 = blobStoreFromEnv({ S3_ENDPOINT: "http://minio:9000/", S3_BUCKET: "studio" });
    expect(s3).toBeInstanceOf(S3BlobStore);
    expect(s3.location).toBe("http://minio:9000/studio");
  });

  it("refuses half an S3 configuration rather than writing to a directory nobody reads", () => {
    expect(() => blobStoreFromEnv({ S3_BUCKET: "studio" })).toThrow(/S3_ENDPOINT and S3_BUCKET go together/);
  });
});

// s3rver is a devDependency; in CI its absence is a failure, never a skip.
const require = createRequire(import.meta.url);
type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> };
let S3rver: (new (options: Record<string, unknown>) => S3rverInstance) | null = null;
try {
  S3rver = require("s3rver");
} catch (err) {
  if (process.env.CI === "true")
    throw new Error(`s3rver is not installed: the S3 blob store cannot be tested (${(err as Error).message})`);
}

describe.runIf(S3rver !== null)("S3BlobStore against s3rver", () => {
  let server: S3rverInstance;
  let endpoint = "";

  beforeAll(async () => {
    server = new S3rver!({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: tempDir(),
      configureBuckets: [{ name: "studio-blobs", configs: [] }],
    });
    const address = await server.run();
    endpoint = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  const store = () =>
    new S3BlobStore({
      endpoint,
      bucket: "studio-blobs",
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
    });
  behavesLikeABlobStore(store);

  it("skips the upload of a blob the bucket already holds", async () => {
    const file = writeTemp(`stored once ${Date.now()}`);
    const sent = vi.spyOn(S3Client.prototype, "send");
    const puts = () => sent.mock.calls.filter(([command]) => command instanceof PutObjectCommand).length;
    const first = await store().putFile(file);
    expect(puts()).toBe(1);
    expect(await store().putFile(file)).toEqual(first);
    expect(puts()).toBe(1);
    sent.mockRestore();
  });
});
