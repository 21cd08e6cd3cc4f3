import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { safeExtract, UnsafeArchiveError } from "./safe-extract";
import { tarBuffer, type TarEntry } from "./tar.testutil";

async function tarGz(entries: TarEntry[]): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "archive-")), "submission.tar.gz");
  fs.writeFileSync(file, gzipSync(await tarBuffer(entries)));
  return file;
}

function destination(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "extract-")), "source");
}

describe("safeExtract", () => {
  it("extracts files, directories, executable bits and links inside the tree", async () => {
    const archive = await tarGz([
      { name: "reproduce.sh", content: "echo hi\n", mode: 0o755, mtime: new Date("2025-01-02T03:04:05Z") },
      { name: "src/", type: "directory" },
      { name: "src/a.py", content: "print(1)\n" },
      { name: "src/link.py", type: "symlink", linkname: "a.py" },
      { name: "copy.py", type: "link", linkname: "src/a.py" },
    ]);
    const root = await safeExtract(archive, destination());
    expect(fs.readFileSync(path.join(root, "reproduce.sh"), "utf8")).toBe("echo hi\n");
    expect(fs.statSync(path.join(root, "reproduce.sh")).mode & 0o111).not.toBe(0);
    // The archive's time is kept: the studio tells files reproduction changed by their times.
    expect(fs.statSync(path.join(root, "reproduce.sh")).mtime.toISOString()).toBe("2025-01-02T03:04:05.000Z");
    expect(fs.readlinkSync(path.join(root, "src/link.py"))).toBe("a.py");
    expect(fs.readFileSync(path.join(root, "copy.py"), "utf8")).toBe("print(1)\n");
  });

  it("uses the one top-level folder as the root when there is nothing else", async () => {
    const archive = await tarGz([{ name: "sub/reproduce.sh", content: "x" }]);
    const dest = destination();
    expect(await safeExtract(archive, dest)).toBe(path.join(fs.realpathSync(dest), "sub"));
  });

  const malicious: [string, TarEntry[], RegExp][] = [
    ["a path with ..", [{ name: "../x", content: "pwned" }], /"\.\.\/x".*has a \.\. segment/],
    [
      "a .. that stays inside lexically (the studio refuses it too)",
      [{ name: "a/../b", content: "x" }],
      /"a\/\.\.\/b".*has a \.\. segment/,
    ],
    ["an absolute path", [{ name: "/etc/x", content: "pwned" }], /"\/etc\/x".*has an absolute path/],
    [
      "a symlink out of the tree",
      [{ name: "passwd", type: "symlink", linkname: "/etc/passwd" }],
      /"passwd".*link to an absolute path/,
    ],
    [
      "a relative symlink out of the tree",
      [{ name: "a/up", type: "symlink", linkname: "../../x" }],
      /"a\/up".*with a \.\. segment/,
    ],
    [
      "a chain of links that each look inside",
      [
        { name: "sub/", type: "directory" },
        { name: "a", type: "symlink", linkname: "sub/.." },
        { name: "b", type: "symlink", linkname: "a/.." },
        { name: "c", type: "symlink", linkname: "b/.." },
      ],
      /"a".*link to "sub\/\.\.", with a \.\. segment/,
    ],
    [
      "a hard link out of the tree",
      [{ name: "shadow", type: "link", linkname: "../../../etc/shadow" }],
      /"shadow".*hard link to .*\.\. segment/,
    ],
    [
      "a hard link to an absolute path",
      [{ name: "shadow", type: "link", linkname: "/etc/shadow" }],
      /"shadow".*hard link to .*absolute path/,
    ],
    [
      "a character device",
      [{ name: "null", type: "character-device", devmajor: 1, devminor: 3 }],
      /"null".*device or FIFO/,
    ],
    ["a FIFO", [{ name: "pipe", type: "fifo" }], /"pipe".*device or FIFO/],
    [
      "a write through a link extracted earlier",
      [
        { name: "d", type: "symlink", linkname: "." },
        { name: "d/x", content: "through" },
      ],
      /"d\/x".*through a link/,
    ],
  ];
  it.each(malicious)("refuses %s, naming the entry, and leaves nothing behind", async (_what, entries, message) => {
    const archive = await tarGz([{ name: "reproduce.sh", content: "echo hi\n" }, ...entries]);
    const dest = destination();
    await expect(safeExtract(archive, dest)).rejects.toThrow(UnsafeArchiveError);
    await expect(safeExtract(archive, destination())).rejects.toThrow(message);
    expect(fs.readdirSync(path.dirname(dest))).toEqual(["source"]);
    expect(fs.readdirSync(dest)).toEqual([]);
  });

  it("refuses an archive past the entry and size limits", async () => {
    const many = await tarGz([
      { name: "a", content: "1" },
      { name: "b", content: "2" },
      { name: "c", content: "3" },
    ]);
    await expect(safeExtract(many, destination(), { maxEntries: 2, maxExpandedBytes: 100 })).rejects.toThrow(
      /"c".*more than 2 entries/,
    );
    const big = await tarGz([{ name: "big.bin", content: "x".repeat(1000) }]);
    await expect(safeExtract(big, destination(), { maxEntries: 10, maxExpandedBytes: 100 })).rejects.toThrow(
      /"big.bin".*more than 100 bytes/,
    );
  });

  it("extracts a .zip and refuses its unsafe entries too", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zip-"));
    // A zip with a safe file, built by Python's zipfile (which, unlike zip(1), writes any name given).
    const build = (name: string, entryName: string) =>
      execFileSync("python3", [
        "-c",
        `import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],"w")\nz.writestr("reproduce.sh","echo zip\\n")\nz.writestr(sys.argv[2],"x")\nz.close()`,
        path.join(dir, name),
        entryName,
      ]);
    build("ok.zip", "src/a.py");
    const root = await safeExtract(path.join(dir, "ok.zip"), destination());
    expect(fs.readFileSync(path.join(root, "reproduce.sh"), "utf8")).toBe("echo zip\n");
    expect(fs.readFileSync(path.join(root, "src/a.py"), "utf8")).toBe("x");
    build("bad.zip", "../../evil");
    await expect(safeExtract(path.join(dir, "bad.zip"), destination())).rejects.toThrow(/\.\.\/\.\.\/evil/);
    // A zip symlink holds its target as its content: `a -> sub/..`, the first link of the chain out.
    execFileSync("python3", [
      "-c",
      `import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],"w")\nz.writestr("sub/x","x")\ni=zipfile.ZipInfo("a")\ni.external_attr=0o120777<<16\nz.writestr(i,"sub/..")\nz.close()`,
      path.join(dir, "chain.zip"),
    ]);
    const dest = destination();
    await expect(safeExtract(path.join(dir, "chain.zip"), dest)).rejects.toThrow(
      /"a".*link to "sub\/\.\.", with a \.\. segment/,
    );
    expect(fs.readdirSync(dest)).toEqual([]);
  });

  it("refuses what is not an archive", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "archive-")), "x.txt");
    fs.writeFileSync(file, "just text, long enough ".repeat(20));
    await expect(safeExtract(file, destination())).rejects.toThrow(/not a \.tar\.gz, \.tar or \.zip/);
  });
});
