import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import * as tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { tarBlob } from "./tar-writer";

async function entriesOf(blob: Blob): Promise<{ name: string; size: number; text: string; mtime: number }[]> {
  const extract = tar.extract();
  const seen: { name: string; size: number; text: string; mtime: number }[] = [];
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (h, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => chunks.push(c as Buffer));
      stream.on("end", () => {
        seen.push({
          name: h.name,
          size: h.size ?? 0,
          text: Buffer.concat(chunks).toString("utf8"),
          mtime: h.mtime?.getTime() ?? 0,
        });
        next();
      });
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  Readable.from([Buffer.from(await blob.arrayBuffer())]).pipe(extract);
  await done;
  return seen;
}

describe("the browser's tar writer", () => {
  it("writes files (short, long, non-ASCII names, empty, over a block) that tar-stream and GNU tar read back exactly", async () => {
    const long = `${"deep/".repeat(30)}reproduce.sh`;
    const big = "x".repeat(1500);
    const blob = tarBlob([
      { path: "paper/1/submission/README.md", data: new Blob(["# hi\n"]), mtimeMs: 1_700_000_000_000 },
      { path: long, data: new Blob(["echo long\n"]) },
      { path: "papier/1/submission/résumé.txt", data: new Blob(["é\n"]) },
      { path: "empty", data: new Blob([]) },
      { path: "big.txt", data: new Blob([big]) },
    ]);
    expect(blob.size % 512).toBe(0);
    expect(await entriesOf(blob)).toEqual([
      { name: "paper/1/submission/README.md", size: 5, text: "# hi\n", mtime: 1_700_000_000_000 },
      { name: long, size: 10, text: "echo long\n", mtime: 0 },
      { name: "papier/1/submission/résumé.txt", size: 3, text: "é\n", mtime: 0 },
      { name: "empty", size: 0, text: "", mtime: 0 },
      { name: "big.txt", size: 1500, text: big, mtime: 0 },
    ]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rs-tar-writer-")), "a.tar");
    fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
    expect(execFileSync("tar", ["-tf", file], { encoding: "utf8" }).trim().split("\n")).toEqual([
      "paper/1/submission/README.md",
      long,
      "papier/1/submission/résumé.txt",
      "empty",
      "big.txt",
    ]);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
