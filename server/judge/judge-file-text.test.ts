/**
 * One rule for a submission file's text (lib/judge/engine/judge-file-text.ts): the CLI's folder
 * reader and the worker's outputs-archive reader give the same text, and neither drops a file
 * PaperBench reads (over 1 MiB, not UTF-8, with NUL bytes).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { judgeFileText, PAPERBENCH_MAX_CHARS } from "@/lib/judge/engine/judge-file-text";
import { readPythonText } from "@/lib/judge/paperbench/python-text";
import { directorySubmissionFiles } from "./directory-submission";
import { readOutputsArchive, submittedArchiveFiles } from "./judge-submission-files";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "judge-file-text-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const files: Record<string, Buffer> = {
  "small.py": Buffer.from("print('héllo')\r\nx = 1\n"),
  "latin1.py": Buffer.from("# caf\xe9\nx = 1\n", "latin1"),
  "nul.json": Buffer.from('{"a": "\u0000"}\n'),
  "results/big.csv": Buffer.from(
    Array.from({ length: 80_000 }, (_, i) => `${i},${(i * 0.37).toFixed(3)},row`).join("\n"),
  ),
  "reproduce.log": Buffer.concat([Buffer.from("start\n"), Buffer.from([0xff, 0xfe]), Buffer.from("\nFINAL 0.9\n")]),
};
for (const [rel, data] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), data);
}

describe("a submission file's text", () => {
  it("is the same from the CLI's folder and the worker's outputs archive", async () => {
    const tarball = path.join(os.tmpdir(), `judge-file-text-${process.pid}.tar.gz`);
    execFileSync("tar", ["-czf", tarball, "-C", dir, "."]);
    try {
      const worker = await readOutputsArchive(fs.createReadStream(tarball));
      const cli = directorySubmissionFiles(dir);
      for (const rel of Object.keys(files)) expect(await worker.read(rel), rel).toBe(await cli.read(rel));
      expect((await worker.list()).map((f) => f.path).sort()).toEqual(Object.keys(files).sort());
    } finally {
      fs.rmSync(tarball, { force: true });
    }
  });

  it("is the same from a submitted archive (Code-Dev): files not kept as text keep their head", async () => {
    const tarball = path.join(os.tmpdir(), `judge-file-text-sub-${process.pid}.tar.gz`);
    execFileSync("tar", ["-czf", tarball, "-C", dir, "."]);
    try {
      const archive = await submittedArchiveFiles(tarball);
      const cli = directorySubmissionFiles(dir);
      for (const rel of ["small.py", "latin1.py", "nul.json", "results/big.csv"]) {
        const f = archive.files.find((x) => x.path === rel)!;
        const text = f.content ?? (f.head ? judgeFileText(f.head, f.size) : null);
        expect(text, rel).toBe(await cli.read(rel));
      }
    } finally {
      fs.rmSync(tarball, { force: true });
    }
  });

  it("keeps every file PaperBench reads, at least as much of it", async () => {
    const cli = directorySubmissionFiles(dir);
    for (const [rel, data] of Object.entries(files)) {
      const text = (await cli.read(rel))!;
      const paperbench = readPythonText(data);
      expect(text.replace(/\r\n?/g, "\n").startsWith(paperbench), rel).toBe(true);
    }
    expect(await cli.read("small.py")).toBe("print('héllo')\r\nx = 1\n");
    expect(await cli.read("nul.json")).toBe('{"a": "\u0000"}\n');
    expect(await cli.read("latin1.py")).toBe("# café\nx = 1\n");
    const big = (await cli.read("results/big.csv"))!;
    expect(files["results/big.csv"].length).toBeGreaterThan(1024 * 1024);
    expect(big).toContain(`only the first ${PAPERBENCH_MAX_CHARS} characters are shown`);
    expect(await cli.read("reproduce.log")).toContain("FINAL 0.9");
  });
});
