import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import * as tar from "tar-stream";

/**
 * Packs a directory into a .tar.gz at `outFile`, paths relative to the directory, `.git` and links
 * included (the studio refuses a link that leaves the tree); sockets and other special files are
 * left out with a note on stderr.
 */
export async function packDirectory(
  dir: string,
  outFile: string,
  log: (line: string) => void = () => {},
): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 6 }), fs.createWriteStream(outFile));
  const addFile = (name: string, full: string, stat: fs.Stats) =>
    new Promise<void>((resolve, reject) => {
      const entry = pack.entry(
        { name, size: stat.size, mode: stat.mode & 0o7777, mtime: stat.mtime, type: "file" },
        (err) => (err ? reject(err) : resolve()),
      );
      fs.createReadStream(full).on("error", reject).pipe(entry);
    });
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const full = path.join(abs, e.name);
      const name = rel ? `${rel}/${e.name}` : e.name;
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) {
        pack.entry({ name: `${name}/`, type: "directory", mode: stat.mode & 0o7777, mtime: stat.mtime });
        await walk(full, name);
      } else if (stat.isSymbolicLink()) {
        pack.entry({ name, type: "symlink", linkname: fs.readlinkSync(full), mtime: stat.mtime });
      } else if (stat.isFile()) {
        await addFile(name, full, stat);
      } else {
        log(`left out ${name}: not a file, folder or link`);
      }
    }
  };
  try {
    await walk(dir, "");
    pack.finalize();
  } catch (err) {
    pack.destroy(err as Error);
  }
  await written;
}
