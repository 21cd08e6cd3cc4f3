import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { checkUnpackedTree, findInTree, isRealDirectory, isRealFile, readRealFile, realSubdirs } from "./upload-tree";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-upload-tree-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function tree(name: string): string {
  const root = path.join(work, name);
  fs.mkdirSync(path.join(root, "src"), { recursive: true });
  fs.writeFileSync(path.join(root, "src", "a.py"), "print(1)\n");
  fs.symlinkSync("a.py", path.join(root, "src", "latest.py"));
  return root;
}

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("not refused");
};

describe("an unpacked upload, read without following links", () => {
  it("holds the tree on disk to the path rule: links pointing down pass; a link up, an absolute link or a FIFO is a 400 naming it", () => {
    const root = tree("checked");
    expect(() => checkUnpackedTree(root, "the upload", "body")).not.toThrow();
    fs.symlinkSync("sub/..", path.join(root, "src", "up"));
    expect(refusal(() => checkUnpackedTree(root, "the upload", "body")).message).toBe(
      'the upload was refused: entry "src/up" is a link to "sub/..", with a .. segment: a link may only point down inside the tree',
    );
    fs.rmSync(path.join(root, "src", "up"));
    fs.symlinkSync("/etc", path.join(root, "etc"));
    expect(refusal(() => checkUnpackedTree(root, "the upload", "body")).message).toMatch(
      /entry "etc" is a link to an absolute path/,
    );
    fs.rmSync(path.join(root, "etc"));
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    expect(refusal(() => checkUnpackedTree(root, "the upload", "body")).message).toMatch(
      /entry "pipe" is not a file, folder or link/,
    );
  });

  it("takes no link for a file or a folder, and reads no file through one", () => {
    const root = tree("readers");
    const host = path.join(work, "host-secret.txt");
    fs.writeFileSync(host, "secret\n");
    fs.symlinkSync(host, path.join(root, "grade.json"));
    fs.symlinkSync("src", path.join(root, "linked-src"));
    expect(isRealFile(path.join(root, "grade.json"))).toBe(false);
    expect(isRealFile(path.join(root, "src", "a.py"))).toBe(true);
    expect(isRealDirectory(path.join(root, "linked-src"))).toBe(false);
    expect(realSubdirs(root)).toEqual(["src"]);
    expect(refusal(() => readRealFile(path.join(root, "grade.json"), "grade.json", 1000)).details).toEqual([
      { path: "grade.json", message: "is a link: links in an upload are not followed" },
    ]);
    expect(readRealFile(path.join(root, "src", "a.py"), "src/a.py", 1000)).toBe("print(1)\n");
    expect(refusal(() => readRealFile(path.join(root, "src", "a.py"), "src/a.py", 3)).message).toMatch(/more than 3/);
  });

  it("finds a manifest's path segment by segment, through no link and under the path rule", () => {
    const root = tree("find");
    fs.symlinkSync("src", path.join(root, "via"));
    expect(findInTree(root, "src/a.py")).toEqual({ path: path.join(root, "src", "a.py"), kind: "file" });
    expect(findInTree(root, "./src/")).toEqual({ path: path.join(root, "src"), kind: "directory" });
    expect(findInTree(root, "via/a.py")).toEqual({
      problem: 'goes through the link "via": links in an upload are not followed',
    });
    expect(findInTree(root, "src/latest.py")).toEqual({ problem: "is a link: links in an upload are not followed" });
    expect(findInTree(root, "src/../src/a.py")).toEqual({ problem: "has a .. segment in its path" });
    expect(findInTree(root, "src/a.py/x")).toEqual({ problem: "is not a file or folder in the upload" });
    expect(findInTree(root, "missing")).toEqual({ problem: "is not a file or folder in the upload" });
  });
});
