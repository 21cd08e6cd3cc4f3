import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { ARCHIVE_LIMITS, readSubmissionArchive, type ArchiveLimits, type SubmissionArchive } from "./archive";
import { makeTarGz, makeZip, type TestEntry } from "./archive.testutil";

const SMALL: ArchiveLimits = { ...ARCHIVE_LIMITS, maxFileBytes: 100, maxTotalBytes: 250, maxLogBytes: 64 };

const entries: TestEntry[] = [
  { name: "submission/", type: "directory" },
  { name: "submission/README.md", data: "# Reproduction\n" },
  { name: "submission/src/train.py", data: "print('héllo')\n" },
  { name: "submission/reproduce.sh", data: "python src/train.py\n" },
  { name: "submission/reproduce.log", data: "x".repeat(100) + "\nTraining done: loss 0.12\n" },
  { name: "submission/weights.bin", data: Buffer.from([1, 2, 0, 3]) },
  { name: "submission/latin1.txt", data: Buffer.from([0x63, 0x61, 0x66, 0xe9]) },
  { name: "submission/big.txt", data: "y".repeat(150) },
  { name: "submission/.git/HEAD", data: "ref: refs/heads/main\n" },
  { name: "submission/.git/config", data: "[core]\n" },
];

function expectListing(archive: SubmissionArchive) {
  const byPath = Object.fromEntries(archive.files.map((f) => [f.path, f]));
  // The one top folder is stripped; .git and the log are not files of the listing.
  expect(Object.keys(byPath)).toEqual([
    "README.md",
    "big.txt",
    "latin1.txt",
    "reproduce.sh",
    "src/train.py",
    "weights.bin",
  ]);
  expect(byPath["src/train.py"]).toMatchObject({ content: "print('héllo')\n", skipped: null, size: 16 });
  expect(byPath["weights.bin"]).toMatchObject({ content: null, skipped: "binary", size: 4 });
  expect(byPath["latin1.txt"]).toMatchObject({ content: null, skipped: "binary" });
  expect(byPath["big.txt"]).toMatchObject({ content: null, skipped: "larger than 100 B", size: 150 });
  // The log keeps its end, where the outcome is.
  expect(archive.reproduceLog).toHaveLength(64);
  expect(archive.reproduceLog!.endsWith("Training done: loss 0.12\n")).toBe(true);
  expect(archive.notes).toContainEqual({ path: ".git/", reason: "git metadata, not kept" });
}

describe("reading a submitted repository", () => {
  it("from a .tar.gz: text kept, binaries and large files listed with why, the log's tail kept", async () => {
    const archive = await readSubmissionArchive({ name: "run.tar.gz", data: await makeTarGz(entries) }, SMALL);
    expectListing(archive);
    expect(archive.name).toBe("run.tar.gz");
  });

  it("from a plain .tar", async () => {
    expectListing(await readSubmissionArchive({ name: "run.tar", data: await makeTarGz(entries, false) }, SMALL));
  });

  it("from a .zip", async () => {
    expectListing(await readSubmissionArchive({ name: "run.zip", data: makeZip(entries) }, SMALL));
  });

  it("from a directory", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "submission-"));
    try {
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.type === "directory") fs.mkdirSync(full, { recursive: true });
        else {
          fs.mkdirSync(path.dirname(full), { recursive: true });
          fs.writeFileSync(full, e.data ?? "");
        }
      }
      fs.symlinkSync("/etc/passwd", path.join(dir, "submission", "link"));
      const archive = await readSubmissionArchive({ path: path.join(dir, "submission") }, SMALL);
      expectListing(archive);
      expect(archive.notes).toContainEqual({ path: "link", reason: "link, not followed" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never keeps unsafe paths or links, and stops keeping text past the total", async () => {
    const data = await makeTarGz([
      { name: "../escape.txt", data: "no" },
      { name: "/etc/passwd", data: "no" },
      { name: "a/../../b.txt", data: "no" },
      { name: "link", type: "symlink", linkname: "/etc/shadow" },
      { name: "one.txt", data: "1".repeat(90) },
      { name: "two.txt", data: "2".repeat(90) },
      { name: "three.txt", data: "3".repeat(90) },
    ]);
    const archive = await readSubmissionArchive({ name: "x.tgz", data }, SMALL);
    expect(archive.files.map((f) => [f.path, f.skipped])).toEqual([
      ["one.txt", null],
      ["three.txt", "over the 250 B kept in all"],
      ["two.txt", null],
    ]);
    expect(archive.notes.map((n) => n.path)).toEqual(["../escape.txt", "/etc/passwd", "a/../../b.txt", "link"]);
    expect(archive.reproduceLog).toBeNull();
  });

  it("refuses what is not an archive, a corrupt archive and too many entries", async () => {
    const refused = async (data: Buffer, limits = SMALL) => {
      const err = await readSubmissionArchive({ name: "bad", data }, limits).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      return err as AppError;
    };
    expect((await refused(Buffer.from("hello"))).message).toMatch(/not a \.tar\.gz, \.tar or \.zip/);
    const gz = await makeTarGz(entries);
    expect((await refused(gz.subarray(0, gz.length - 30))).code).toBe("bad_request");
    expect((await refused(gz, { ...SMALL, maxEntries: 3 })).code).toBe("payload_too_large");
    expect((await refused(gz, { ...SMALL, maxArchiveBytes: 10 })).code).toBe("payload_too_large");
  });

  it("keeps a reproduce.log with NUL characters, each replaced by U+FFFD and reported in the notes", async () => {
    const log = Buffer.concat([Buffer.from("epoch 1 é\n"), Buffer.from([0, 0]), Buffer.from("\nsegfault\n")]);
    const archive = await readSubmissionArchive({
      name: "run.zip",
      data: makeZip([{ name: "reproduce.log", data: log }]),
    });
    expect(archive.reproduceLog).toBe("epoch 1 é\n\uFFFD\uFFFD\nsegfault\n");
    expect(archive.notes).toEqual([
      { path: "reproduce.log", reason: "kept with 2 NUL characters (U+0000) replaced by U+FFFD" },
    ]);
  });
});
