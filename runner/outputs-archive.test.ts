import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { buildOutputsArchive } from "./outputs-archive";

async function readArchive(
  file: string,
): Promise<Map<string, { type: string; content: string; linkname?: string | null }>> {
  const entries = new Map<string, { type: string; content: string; linkname?: string | null }>();
  const extract = tar.extract();
  fs.createReadStream(file)
    .pipe(createGunzip())
    .pipe(extract as unknown as NodeJS.WritableStream);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const c of entry) chunks.push(c as Buffer);
    entries.set(entry.header.name, {
      type: entry.header.type ?? "file",
      content: Buffer.concat(chunks).toString(),
      linkname: entry.header.linkname,
    });
  }
  return entries;
}

describe("buildOutputsArchive", () => {
  it("keeps the executed submission less files over the limit, links inside kept as links, links out left out, secrets masked", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outputs-"));
    fs.mkdirSync(path.join(dir, "results"));
    fs.writeFileSync(path.join(dir, "reproduce.log"), "done\n");
    fs.writeFileSync(path.join(dir, "results", "table.csv"), "a,b\n1,2\n");
    fs.writeFileSync(path.join(dir, "results", "model.bin"), Buffer.alloc(2048));
    fs.writeFileSync(path.join(dir, "leak.txt"), "token=hf_abcdef end");
    fs.symlinkSync("results/table.csv", path.join(dir, "latest.csv"));
    fs.symlinkSync("/etc/passwd", path.join(dir, "passwd"));
    // Inside the tree to a lexical check, but refused by the studio's path rule: a link only points down.
    fs.symlinkSync("../reproduce.log", path.join(dir, "results", "up.log"));
    fs.writeFileSync(path.join(dir, "new\nline.txt"), "x");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "outputs-archive-")), "outputs.tar.gz");

    const result = await buildOutputsArchive(dir, file, { maxFileBytes: 1024, secrets: ["hf_abcdef"] });

    expect([...result.leftOut].sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      [
        { path: "passwd", reason: "link out of the submission (/etc/passwd)" },
        { path: "results/up.log", reason: "link out of the submission (../reproduce.log)" },
        {
          path: "new\nline.txt",
          reason: "a name the path rule refuses (has a control character (U+000A) in its path)",
        },
        { path: "results/model.bin", reason: "2048 bytes, over the limit of 1024" },
      ].sort((a, b) => a.path.localeCompare(b.path)),
    );
    expect(result.masked).toEqual(["leak.txt"]);
    const entries = await readArchive(file);
    expect([...entries.keys()].sort()).toEqual([
      "latest.csv",
      "leak.txt",
      "reproduce.log",
      "results/",
      "results/table.csv",
    ]);
    expect(entries.get("results/table.csv")!.content).toBe("a,b\n1,2\n");
    expect(entries.get("leak.txt")!.content).toBe("token=*** end");
    expect(entries.get("latest.csv")).toMatchObject({ type: "symlink", linkname: "results/table.csv" });
    expect(result.files).toBe(3);
  });

  it("masks a secret in file and directory names, link targets, contents broken across lines, and the names it reports", async () => {
    const secret = "hf_SeCrEtVaLuE";
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outputs-"));
    fs.mkdirSync(path.join(dir, `run-${secret}`));
    fs.writeFileSync(path.join(dir, `run-${secret}`, "log.txt"), "fine\n");
    fs.writeFileSync(path.join(dir, `key-${secret}.txt`), "a");
    fs.writeFileSync(path.join(dir, `key-hf_OTHER.txt`), "b");
    fs.writeFileSync(path.join(dir, "wrapped.txt"), "key: hf_SeCrE\r\ntVaLuE\n");
    fs.writeFileSync(path.join(dir, "big.bin"), Buffer.alloc(2048));
    fs.renameSync(path.join(dir, "big.bin"), path.join(dir, `big-${secret}.bin`));
    fs.symlinkSync(`key-${secret}.txt`, path.join(dir, "latest"));
    fs.symlinkSync(`/home/${secret}`, path.join(dir, "outside"));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "outputs-archive-")), "outputs.tar.gz");

    const result = await buildOutputsArchive(dir, file, { maxFileBytes: 1024, secrets: [secret, "hf_OTHER"] });

    const entries = await readArchive(file);
    const listing = JSON.stringify([...entries.entries()]);
    expect(listing).not.toContain("SeCrEt");
    expect(listing).not.toContain("hf_OTHER");
    // Two names that mask alike stay two files.
    expect([...entries.keys()].filter((n) => n.startsWith("key-***.txt"))).toHaveLength(2);
    expect(entries.get("run-***/log.txt")!.content).toBe("fine\n");
    expect(entries.get("latest")).toMatchObject({ type: "symlink", linkname: "key-***.txt" });
    expect(entries.get("wrapped.txt")!.content).toBe("key: ***\r\n***\n");
    // What goes into the log names nothing secret either.
    const reported = JSON.stringify([result.leftOut, result.masked]);
    expect(reported).not.toContain("SeCrEt");
    expect(result.leftOut.map((l) => l.path).sort()).toEqual(["big-***.bin", "outside"]);
    expect(result.masked).toEqual(
      expect.arrayContaining(["run-*** (its name)", "latest (its link target)", "wrapped.txt"]),
    );
  });
});
