/** Test-only builders of submission archives (.tar.gz and .zip) in memory. */
import { deflateRawSync, crc32, gzipSync } from "node:zlib";
import * as tar from "tar-stream";

export interface TestEntry {
  name: string;
  data?: string | Buffer;
  /** `link` is a hard link; devices and fifos are what a submission must never hold. */
  type?: "file" | "directory" | "symlink" | "link" | "character-device" | "block-device" | "fifo";
  linkname?: string;
}

export async function makeTarGz(entries: readonly TestEntry[], gzip = true): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on("data", (c: unknown) => chunks.push(c as Buffer));
    pack.on("end", resolve);
    pack.on("error", reject);
  });
  for (const e of entries) {
    const type = e.type ?? "file";
    if (type === "file")
      pack.entry({ name: e.name, type }, Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? ""));
    else pack.entry({ name: e.name, type, linkname: e.linkname });
  }
  pack.finalize();
  await done;
  const tarBytes = Buffer.concat(chunks);
  return gzip ? gzipSync(tarBytes) : tarBytes;
}

/** A minimal zip (deflated entries, no extras), enough for yauzl. */
export function makeZip(entries: readonly TestEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    // A zip symlink holds its target as its content.
    const content = e.type === "symlink" ? (e.linkname ?? "") : e.data;
    const data =
      e.type === "directory" ? Buffer.alloc(0) : Buffer.isBuffer(content) ? content : Buffer.from(content ?? "");
    const compressed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    const modes: Record<string, number> = {
      symlink: 0o120777,
      directory: 0o040755,
      fifo: 0o010644,
      "character-device": 0o020644,
      "block-device": 0o060644,
    };
    const mode = modes[e.type ?? "file"] ?? 0o100644;
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}
