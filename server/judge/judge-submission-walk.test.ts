import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { walkLikePython } from "./directory-submission";
import { walkOfPaths } from "./judge-submission-files";

describe("the submission walked as os.walk walks it", () => {
  it("an archive's files: folders in the order their first entry comes, pre-order, files in entry order, seconds as mtime", () => {
    const walk = walkOfPaths([
      { path: "src/b.py", mtimeMs: 2_000 },
      { path: "README.md", mtimeMs: 1_500 },
      { path: "results/x/y.csv", mtimeMs: null },
      { path: "src/a.py", mtimeMs: 3_000 },
      { path: "results/top.json", mtimeMs: 4_000 },
    ]);
    expect(walk.map((d) => d.dir)).toEqual(["", "src", "results", "results/x"]);
    expect(walk[0]).toMatchObject({ dirs: ["src", "results"], files: [{ name: "README.md", mtime: 1.5 }] });
    expect(walk[1].files.map((f) => f.name)).toEqual(["b.py", "a.py"]);
    expect(walk[2]).toMatchObject({ dirs: ["x"], files: [{ name: "top.json", mtime: 4 }] });
    expect(Number.isNaN(walk[3].files[0].mtime)).toBe(true);
  });

  it("a folder: every folder once, top-down, a link to a folder listed but not walked, st_mtime in seconds", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "walk-"));
    try {
      fs.mkdirSync(path.join(root, "a/b"), { recursive: true });
      fs.writeFileSync(path.join(root, "a/b/c.py"), "x");
      fs.writeFileSync(path.join(root, "top.md"), "y");
      fs.utimesSync(path.join(root, "top.md"), 1_700_000_000, 1_700_000_000);
      fs.symlinkSync(path.join(root, "a"), path.join(root, "link"));
      const walk = await walkLikePython(root);
      expect(walk.map((d) => d.dir)).toEqual(["", "a", "a/b"]);
      expect([...walk[0].dirs].sort()).toEqual(["a", "link"]);
      expect(walk[0].files).toEqual([{ name: "top.md", mtime: 1_700_000_000 }]);
      expect(walk[2].files.map((f) => f.name)).toEqual(["c.py"]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
