import "server-only";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { AppError } from "@/lib/errors";
import { hashFile, isSha256, type BlobStore } from "./blob-store";

/**
 * Blobs in a directory, at `<dir>/<first two hex digits>/<sha256>`. A file is copied into a
 * temporary file in the same directory while it is hashed (one read), then renamed to its name:
 * a rename is atomic, so a reader never sees half a blob, and a crash leaves only a `.tmp-` file.
 */
export class LocalBlobStore implements BlobStore {
  constructor(readonly dir: string) {}

  get location(): string {
    return this.dir;
  }

  async putFile(filePath: string, opts: { move?: boolean } = {}): Promise<{ sha256: string; bytes: number }> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    if (opts.move) {
      const moved = await this.moveIn(filePath);
      if (moved) return moved;
    }
    const temp = path.join(this.dir, `.tmp-${randomUUID()}`);
    const hash = createHash("sha256");
    let bytes = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(fs.createReadStream(filePath), hashing, fs.createWriteStream(temp, { flags: "wx" }));
      const sha256 = hash.digest("hex");
      const target = this.pathOf(sha256);
      if (fs.existsSync(target)) {
        await fs.promises.rm(temp, { force: true });
      } else {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(temp, target);
      }
      return { sha256, bytes };
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
  }

  /**
   * Takes a file the caller no longer needs: hashed in one read, then renamed into place (no second
   * write of gigabytes). Null when it is on another filesystem (rename cannot cross one): copy then.
   */
  private async moveIn(filePath: string): Promise<{ sha256: string; bytes: number } | null> {
    const { sha256, bytes } = await hashFile(filePath);
    const target = this.pathOf(sha256);
    if (fs.existsSync(target)) return { sha256, bytes };
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.promises.rename(filePath, target);
      return { sha256, bytes };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EXDEV") return null;
      throw err;
    }
  }

  async open(sha256: string): Promise<Readable> {
    if (!isSha256(sha256)) throw noSuchBlob(sha256);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.pathOf(sha256), "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw noSuchBlob(sha256);
      throw err;
    }
    return handle.createReadStream();
  }

  async has(sha256: string): Promise<boolean> {
    return isSha256(sha256) && fs.existsSync(this.pathOf(sha256));
  }

  /** The file of a blob (the name is checked by the callers: only hex reaches a path). */
  private pathOf(sha256: string): string {
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }
}

export function noSuchBlob(sha256: string): AppError {
  return new AppError("not_found", `No blob ${sha256.slice(0, 80)} in the blob store`);
}
