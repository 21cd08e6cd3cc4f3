import { describe, expect, it } from "vitest";
import { checkEntryPath, entryRefusal, normalizeEntryPath, symlinkTargetRefusal } from "./entry-path";

describe("the one path rule: entry names", () => {
  it("normalizes a safe name: . and empty segments dropped, backslashes as separators", () => {
    expect(normalizeEntryPath("./a//b/./c.py")).toBe("a/b/c.py");
    expect(normalizeEntryPath("a\\b.py")).toBe("a/b.py");
    expect(normalizeEntryPath("dir/")).toBe("dir");
    expect(normalizeEntryPath("données/ü.py")).toBe("données/ü.py");
  });

  it.each([
    ["/etc/passwd", /absolute/],
    ["\\abs", /absolute/],
    ["C:/x", /absolute/],
    ["../x", /\.\. segment/],
    ["a/../b", /\.\. segment/],
    ["a/..", /\.\. segment/],
    ["a\\..\\..\\b", /\.\. segment/],
    ["a\u0000b.py", /NUL/],
    ["a\nb.py", /control character \(U\+000A\)/],
    ["a\u001b[31mred", /control character \(U\+001B\)/],
    ["a\u0085b", /control character \(U\+0085\)/],
    ["a\uD800b", /lone surrogate/],
    [".", /no name/],
    ["", /no name/],
    [`${"x".repeat(256)}/y`, /longer than 255 bytes/],
    [Array.from({ length: 20 }, () => "é".repeat(120)).join("/"), /longer than 4096 bytes/],
  ])("refuses %j, saying why", (name, reason) => {
    const checked = checkEntryPath(name);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toMatch(reason);
    expect(normalizeEntryPath(name)).toBeNull();
  });

  it("takes 255-byte segments and paths up to 4096 bytes", () => {
    expect(normalizeEntryPath("x".repeat(255))).toBe("x".repeat(255));
    const long = Array.from({ length: 16 }, () => "y".repeat(255)).join("/");
    expect(normalizeEntryPath(long)).toBe(long);
  });
});

describe("the one path rule: links", () => {
  it("keeps links that point down", () => {
    expect(symlinkTargetRefusal("run3")).toBeNull();
    expect(symlinkTargetRefusal("./data/x.csv")).toBeNull();
    expect(entryRefusal("latest", { kind: "symlink", target: "runs/3" })).toBeNull();
    expect(entryRefusal("copy.py", { kind: "hardlink", target: "src/a.py" })).toBeNull();
  });

  it.each([
    // Each step of the chain looks inside to a lexical check; together they climb out of the tree.
    ["the first link of a chain", "a", "sub/..", /\.\. segment/],
    ["a link through another", "b", "a/..", /\.\. segment/],
    ["a link up that stays inside lexically", "src/lib", "../lib", /\.\. segment/],
    ["an absolute link", "passwd", "/etc/passwd", /absolute path/],
    ["a Windows absolute link", "w", "C:\\Windows", /absolute path/],
    ["a link with no target", "e", "", /no target/],
    ["a link with a control character", "n", "a\nb", /control character/],
  ])("refuses %s", (_what, name, target, reason) => {
    expect(entryRefusal(name, { kind: "symlink", target })).toMatch(reason);
  });

  it("refuses hard links to names the rule refuses, and anything but files, folders and links", () => {
    expect(entryRefusal("shadow", { kind: "hardlink", target: "../../etc/shadow" })).toMatch(
      /hard link to "\.\.\/\.\.\/etc\/shadow", which has a \.\. segment/,
    );
    expect(entryRefusal("h", { kind: "hardlink", target: "/etc/shadow" })).toMatch(/absolute/);
    expect(entryRefusal("null", { kind: "other", type: "character device" })).toMatch(/character device/);
  });

  it("lets only a folder be the unnamed root, and names before kinds", () => {
    expect(entryRefusal("./", { kind: "directory" })).toBeNull();
    expect(entryRefusal("./", { kind: "file" })).toMatch(/no name/);
    expect(entryRefusal("../x", { kind: "directory" })).toMatch(/\.\. segment/);
    expect(entryRefusal("/abs", { kind: "symlink", target: "ok" })).toMatch(/absolute/);
  });
});
