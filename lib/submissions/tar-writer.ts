/**
 * A tar archive built as a Blob from Blobs (a browser's picked files): headers and padding are
 * small byte arrays, the files' bytes stay where they are until the Blob is read (sent), so a
 * folder of any size is packed without copying it into memory. POSIX ustar, with a PAX header for
 * a path that does not fit (over 100 bytes, or not ASCII) or a file of 8 GiB or more.
 */

export interface TarEntry {
  /** `/`-separated, relative. */
  path: string;
  data: Blob;
  /** Milliseconds since the epoch (a File's `lastModified`). */
  mtimeMs?: number;
}

const BLOCK = 512;
const MAX_OCTAL_SIZE = 8 ** 11 - 1;
const encoder = new TextEncoder();

function writeText(header: Uint8Array, offset: number, length: number, value: string): void {
  header.set(encoder.encode(value).subarray(0, length), offset);
}

function writeOctal(header: Uint8Array, offset: number, length: number, value: number): void {
  writeText(
    header,
    offset,
    length - 1,
    Math.floor(value)
      .toString(8)
      .padStart(length - 1, "0"),
  );
}

function header(name: string, size: number, mtime: number, type: "0" | "x"): Uint8Array<ArrayBuffer> {
  const block = new Uint8Array(BLOCK);
  writeText(block, 0, 100, name);
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, Math.min(size, MAX_OCTAL_SIZE));
  writeOctal(block, 136, 12, mtime);
  block.fill(0x20, 148, 156);
  writeText(block, 156, 1, type);
  writeText(block, 257, 6, "ustar\u0000");
  writeText(block, 263, 2, "00");
  let sum = 0;
  for (const byte of block) sum += byte;
  writeText(block, 148, 8, `${sum.toString(8).padStart(6, "0")}\u0000 `);
  return block;
}

/** One PAX record, `<length> <key>=<value>\n`, its length counting its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bytes = encoder.encode(body).length;
  let length = bytes + String(bytes).length;
  if (String(length).length !== String(bytes).length) length = bytes + String(length).length;
  return `${length}${body}`;
}

const padding = (size: number) => new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);

export function tarBlob(entries: readonly TarEntry[]): Blob {
  const parts: BlobPart[] = [];
  for (const entry of entries) {
    const name = entry.path.replace(/^\/+/, "");
    const mtime = (entry.mtimeMs ?? 0) / 1000;
    const size = entry.data.size;
    const fits = /^[\x20-\x7e]*$/.test(name) && name.length <= 100 && size <= MAX_OCTAL_SIZE;
    if (!fits) {
      const pax = new Uint8Array(
        encoder.encode(paxRecord("path", name) + (size > MAX_OCTAL_SIZE ? paxRecord("size", String(size)) : "")),
      );
      parts.push(
        header(`PaxHeader/${name.replace(/[^\x20-\x7e]/g, "_").slice(-80)}`, pax.length, mtime, "x"),
        pax,
        padding(pax.length),
      );
    }
    parts.push(
      header(fits ? name : name.replace(/[^\x20-\x7e]/g, "_").slice(-100), size, mtime, "0"),
      entry.data,
      padding(size),
    );
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return new Blob(parts, { type: "application/x-tar" });
}
