import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar-stream";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { CREATION_TIME_FILE } from "@/lib/jobs/outputs-index";
import { makeTarGz } from "@/server/submissions/archive.testutil";
import { hostileCases, makeCanary } from "@/server/submissions/hostile-archives.testutil";
import { indexOutputsArchive } from "./outputs-index";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outputs-index-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function outputs(entries: { name: string; content: string; mtime: Date }[]): Promise<string> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const ended = new Promise<void>((resolve) => pack.on("end", resolve));
  for (const e of entries) pack.entry({ name: e.name, mtime: e.mtime }, e.content);
  pack.finalize();
  await ended;
  const file = path.join(dir, `outputs-${Math.random()}.tar.gz`);
  fs.writeFileSync(file, gzipSync(Buffer.concat(chunks)));
  return file;
}

describe("the files reproduction changed, in an outputs archive", () => {
  it("marks new files and files written after the start; in the start's own second, only a changed size", async () => {
    // Reproduction started at 12:00:00.400; reproduce.log.creation_time says 12:00:00 (whole seconds, as PaperBench writes it), as tar dates every file of that second.
    const start = new Date("2026-11-24T12:00:00.400Z");
    const second = new Date("2026-11-24T12:00:00.000Z");
    const file = await outputs([
      { name: CREATION_TIME_FILE, content: `${Math.floor(start.getTime() / 1000)}\n`, mtime: second },
      { name: "old.py", content: "print(1)\n", mtime: new Date("2026-11-20T08:00:00Z") },
      { name: "README.md", content: "# same\n", mtime: second },
      { name: "config.json", content: '{"lr": 0.01, "steps": 10}', mtime: second },
      { name: "later.txt", content: "x", mtime: new Date("2026-11-24T12:00:01Z") },
      { name: "results/table.csv", content: "a,b\n", mtime: second },
    ]);
    const original = new Map([
      ["old.py", 9],
      ["README.md", 7],
      ["config.json", 12],
      ["later.txt", 1],
    ]);
    const index = await indexOutputsArchive(file, original);
    const changed = Object.fromEntries(index.files.map((f) => [f.path, f.changed]));
    expect(changed).toEqual({
      [CREATION_TIME_FILE]: false,
      "old.py": false,
      // Uploaded moments before the run, untouched: same second, same size.
      "README.md": false,
      // Rewritten in the first second: its size gave it away.
      "config.json": true,
      "later.txt": true,
      "results/table.csv": true,
    });
    expect(index.bytes).toBe(index.files.reduce((n, f) => n + f.size, 0));
  });

  it("without a creation time, marks only what the submission did not have", async () => {
    const file = await outputs([
      { name: "README.md", content: "# same\n", mtime: new Date() },
      { name: "new.csv", content: "1\n", mtime: new Date() },
    ]);
    const index = await indexOutputsArchive(file, new Map([["README.md", 7]]));
    expect(index.files.map((f) => [f.path, f.changed])).toEqual([
      ["README.md", false],
      ["new.csv", true],
    ]);
  });
});

describe("the path rule on an outputs archive", () => {
  it.each([
    ["../../../../etc/cron.d/x", /has a \.\. segment/],
    ["/abs", /has an absolute path/],
    ["results/../x", /has a \.\. segment/],
  ])("refuses an entry named %j (400, naming it)", async (name, rule) => {
    const file = path.join(dir, `named-${Math.random()}.tar.gz`);
    fs.writeFileSync(
      file,
      await makeTarGz([
        { name: "ok.txt", data: "ok" },
        { name, data: "* * * * * root sh /tmp/x\n" },
      ]),
    );
    const err = (await indexOutputsArchive(file, new Map()).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(400);
    expect(err.message).toContain(`entry ${JSON.stringify(name)}`);
    expect(err.message).toMatch(rule);
    expect(err.details).toEqual([expect.objectContaining({ path: "outputs", entry: name })]);
  });

  it("refuses every hostile archive (a chain of links out, an absolute link, a/../b, an absolute name, ../ names) naming its entry", async () => {
    const canary = makeCanary();
    for (const hostile of hostileCases("results/", "latest", canary.dir, canary.dir)) {
      const file = path.join(dir, `hostile-${Math.random()}.tar.gz`);
      fs.writeFileSync(file, await makeTarGz([{ name: "reproduce.log", data: "done\n" }, ...hostile.entries]));
      const err = (await indexOutputsArchive(file, new Map()).catch((e: unknown) => e)) as AppError;
      expect(err, hostile.what).toBeInstanceOf(AppError);
      expect(err.status, hostile.what).toBe(400);
      expect(err.message, hostile.what).toContain(`entry ${JSON.stringify(hostile.entry)}`);
      expect(err.message, hostile.what).toMatch(hostile.refusal);
    }
    fs.rmSync(canary.dir, { recursive: true, force: true });
  });

  it("indexes names as the rule normalizes them, and keeps links that point down", async () => {
    const file = path.join(dir, `fine-${Math.random()}.tar.gz`);
    fs.writeFileSync(
      file,
      await makeTarGz([
        { name: "./results/", type: "directory" },
        { name: "./results/t.csv", data: "a\n" },
        { name: "latest.csv", type: "symlink", linkname: "results/t.csv" },
      ]),
    );
    expect((await indexOutputsArchive(file, new Map())).files).toEqual([
      { path: "results/t.csv", size: 2, changed: true },
    ]);
  });
});
