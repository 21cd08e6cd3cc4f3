import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { ARCHIVE_LIMITS, checkSubmissionArchive, readSubmissionArchive, type ArchiveLimits } from "./archive";
import { makeTarGz, makeZip, type TestEntry } from "./archive.testutil";
import { submissionLimits } from "./submission-limits";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-check-archive-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
function onDisk(data: Buffer): string {
  const file = path.join(dir, `archive-${n++}`);
  fs.writeFileSync(file, data);
  return file;
}

const LIMITS: ArchiveLimits = { ...ARCHIVE_LIMITS, maxEntries: 1000, maxExpandedBytes: 1024 * 1024 };

async function refusal(data: Buffer, limits = LIMITS): Promise<AppError> {
  const err = await checkSubmissionArchive(onDisk(data), "run.tar.gz", limits).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const ok: TestEntry[] = [{ name: "repo/reproduce.sh", data: "echo hi\n" }];

describe("checking a submission archive that is going to be run", () => {
  const unsafe: [string, TestEntry, RegExp][] = [
    [
      "a .. in a path",
      { name: "repo/../../evil.sh", data: "x" },
      /entry "repo\/..\/..\/evil.sh" has a \.\. segment in its path/,
    ],
    [
      "a .. that stays inside lexically",
      { name: "repo/a/../b.sh", data: "x" },
      /entry "repo\/a\/..\/b.sh" has a \.\. segment in its path/,
    ],
    ["an absolute path", { name: "/etc/cron.d/evil", data: "x" }, /entry "\/etc\/cron.d\/evil" has an absolute path/],
    [
      "a control character in a name",
      { name: "repo/a\nb.py", data: "x" },
      /entry "repo\/a\\nb.py" has a control character \(U\+000A\)/,
    ],
    [
      "a symlink leaving the tree",
      { name: "repo/data", type: "symlink", linkname: "../../home" },
      /entry "repo\/data" is a link to "..\/..\/home", with a \.\. segment/,
    ],
    [
      "a symlink to an absolute path",
      { name: "repo/key", type: "symlink", linkname: "/root/.ssh/id_rsa" },
      /entry "repo\/key" is a link to an absolute path/,
    ],
    // The first link of the chain `a -> sub/..`, `b -> a/..`, … that climbs out while each looks inside.
    [
      "a symlink with a .. that looks inside",
      { name: "repo/a", type: "symlink", linkname: "sub/.." },
      /entry "repo\/a" is a link to "sub\/..", with a \.\. segment/,
    ],
    [
      "a hard link leaving the tree",
      { name: "repo/passwd", type: "link", linkname: "../etc/passwd" },
      /entry "repo\/passwd" is a hard link to "..\/etc\/passwd", which has a \.\. segment/,
    ],
    ["a character device", { name: "repo/null", type: "character-device" }, /entry "repo\/null" is a character device/],
    ["a block device", { name: "repo/sda", type: "block-device" }, /entry "repo\/sda" is a block device/],
    ["a fifo", { name: "repo/pipe", type: "fifo" }, /entry "repo\/pipe" is a fifo/],
  ];
  for (const [what, entry, message] of unsafe) {
    it(`refuses a .tar.gz with ${what}, naming the entry (400)`, async () => {
      const err = await refusal(await makeTarGz([...ok, entry]));
      expect(err.status).toBe(400);
      expect(err.message).toMatch(message);
      expect(err.details).toContainEqual(expect.objectContaining({ path: "archive", entry: entry.name }));
    });
  }

  it("refuses the same in a plain .tar and in a .zip", async () => {
    expect((await refusal(await makeTarGz([...ok, { name: "../x", data: "x" }], false))).message).toMatch(
      /entry "..\/x" has a \.\. segment in its path/,
    );
    expect((await refusal(makeZip([...ok, { name: "../x", data: "x" }]))).message).toMatch(
      /entry "..\/x" has a \.\. segment in its path/,
    );
    expect((await refusal(makeZip([...ok, { name: "link", type: "symlink", linkname: "../../etc" }]))).message).toMatch(
      /entry "link" is a link to "..\/..\/etc", with a \.\. segment/,
    );
    expect((await refusal(makeZip([...ok, { name: "b", type: "symlink", linkname: "a/.." }]))).message).toMatch(
      /entry "b" is a link to "a\/..", with a \.\. segment/,
    );
    expect((await refusal(makeZip([...ok, { name: "/abs", data: "x" }]))).message).toMatch(
      /entry "\/abs" has an absolute path/,
    );
    expect((await refusal(makeZip([...ok, { name: "pipe", type: "fifo" }]))).message).toMatch(/entry "pipe" is a fifo/);
  });

  it("keeps a link inside the tree, the root folder entry of `tar -C dir .`, and .git", async () => {
    const { archive } = await checkSubmissionArchive(
      onDisk(
        await makeTarGz([
          { name: "./", type: "directory" },
          { name: "./src/", type: "directory" },
          { name: "./src/main.py", data: "print(1)\n" },
          { name: "./README.md", data: "# run\n" },
          { name: "./src/latest", type: "symlink", linkname: "main.py" },
          { name: "./copy.py", type: "link", linkname: "src/main.py" },
          { name: "./.git/HEAD", data: "ref: refs/heads/main\n" },
        ]),
      ),
      "run.tar.gz",
      LIMITS,
    );
    expect(archive.files.map((f) => f.path)).toEqual(["README.md", "src/main.py"]);
    expect(archive.notes).toEqual(
      expect.arrayContaining([
        { path: "src/latest", reason: "link, not followed" },
        { path: ".git/", reason: "git metadata, not kept" },
      ]),
    );
  });

  it("refuses more entries than the limit (413), naming the entry past it", async () => {
    const entries = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, data: "x" }));
    const err = await refusal(await makeTarGz(entries), { ...LIMITS, maxEntries: 5 });
    expect(err.status).toBe(413);
    expect(err.message).toMatch(/more than 5 entries \(at entry "f5.txt"\)/);
  });

  it("refuses an archive expanding past the limit (413), naming the entry, in .tar.gz and .zip", async () => {
    const bomb = [
      { name: "small.txt", data: "x" },
      { name: "zeros.bin", data: Buffer.alloc(300_000) },
    ];
    const limits = { ...LIMITS, maxExpandedBytes: 200_000 };
    for (const data of [await makeTarGz(bomb), makeZip(bomb)]) {
      const err = await refusal(data, limits);
      expect(err.status).toBe(413);
      expect(err.message).toMatch(/expands to more than .* \(at entry "zeros.bin"\)/);
    }
  });

  it("refuses a compressed archive over its own limit (413)", async () => {
    expect((await refusal(await makeTarGz(ok), { ...LIMITS, maxArchiveBytes: 10 })).status).toBe(413);
  });

  it("accepts a two-level repository of many files, with the listing and the expanded size right", async () => {
    const entries: TestEntry[] = [];
    let expanded = 0;
    for (let d = 0; d < 40; d++) {
      for (let f = 0; f < 50; f++) {
        const data = `dir ${d} file ${f}\n`;
        expanded += data.length;
        entries.push({ name: `repo/d${String(d).padStart(2, "0")}/f${String(f).padStart(2, "0")}.py`, data });
      }
    }
    const { archive, expandedBytes } = await checkSubmissionArchive(onDisk(await makeTarGz(entries)), "repo.tar.gz", {
      ...LIMITS,
      maxEntries: 2000,
    });
    expect(archive.files).toHaveLength(2000);
    expect(expandedBytes).toBe(expanded);
    expect(archive.files[0]).toEqual({ path: "d00/f00.py", size: 13, content: "dir 0 file 0\n", skipped: null });
    expect(archive.files.at(-1)!.path).toBe("d39/f49.py");
  });

  it("the grading import still skips what an upload refuses, with notes", async () => {
    const archive = await readSubmissionArchive({
      path: onDisk(await makeTarGz([...ok, { name: "repo/pipe", type: "fifo" }, { name: "../x", data: "x" }])),
    });
    expect(archive.files.map((f) => f.path)).toEqual(["reproduce.sh"]);
    expect(archive.notes.map((note) => note.path)).toEqual(["pipe", "../x"]);
  });
});

describe("submissionLimits", () => {
  it("defaults to 2 GiB compressed, 2 GiB expanded and 100,000 files, each configurable", () => {
    expect(submissionLimits({})).toMatchObject({
      maxArchiveBytes: 2 * 1024 ** 3,
      maxExpandedBytes: 2 * 1024 ** 3,
      maxEntries: 100_000,
    });
    expect(
      submissionLimits({
        SUBMISSION_MAX_ARCHIVE_BYTES: 10,
        SUBMISSION_MAX_EXPANDED_BYTES: 20,
        SUBMISSION_MAX_FILES: 30,
      }),
    ).toMatchObject({
      maxArchiveBytes: 10,
      maxExpandedBytes: 20,
      maxEntries: 30,
    });
  });
});
