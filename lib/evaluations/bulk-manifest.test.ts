import { describe, expect, it } from "vitest";
import { parseCsvRecords, parseManifest } from "./bulk-manifest";

describe("the bulk upload's manifest", () => {
  it("reads RFC 4180 records with the line each starts on: quotes, doubled quotes, newlines in quotes, CRLF, a BOM, blank lines", () => {
    expect(parseCsvRecords('\ufeffa,b\r\n"x, ""y""","two\nlines"\n\nlast,')).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ['x, "y"', "two\nlines"] },
      { line: 5, fields: ["last", ""] },
    ]);
    expect(parseCsvRecords('a\n"open')).toEqual({ line: 2, column: "(row)", message: "a quoted field is not closed" });
  });

  it("takes the columns in any order and names the line and column of every bad row", () => {
    const { rows, issues } = parseManifest("run,path,paper_id\n1,a.tar.gz,p\n0,b,p\n2,,p\n3,../c,\n4,/abs,p\n", {
      allowAbsolute: false,
    });
    expect(rows).toEqual([{ line: 2, paperId: "p", run: 1, path: "a.tar.gz" }]);
    expect(issues.map((i) => [i.line, i.column])).toEqual([
      [3, "run"],
      [4, "path"],
      [5, "paper_id"],
      [5, "path"],
      [6, "path"],
    ]);
    expect(parseManifest("paper_id,run,path\np,1,/abs/sub/\n", { allowAbsolute: true }).rows).toEqual([
      { line: 2, paperId: "p", run: 1, path: "/abs/sub" },
    ]);
  });

  it("refuses a header without its columns, an unknown or repeated column, and a row of the wrong width", () => {
    expect(parseManifest("paper_id,run,file\n", { allowAbsolute: false }).issues.map((i) => i.column)).toEqual([
      "file",
      "path",
    ]);
    expect(
      parseManifest("paper_id,run,path,run\n", { allowAbsolute: false }).issues.map((i) => [i.column, i.message]),
    ).toEqual([["run", "appears twice in the header"]]);
    expect(parseManifest("paper_id,run,path\np,1\n", { allowAbsolute: false }).issues).toEqual([
      { line: 2, column: "(row)", message: "has 2 fields, the header 3" },
    ]);
    expect(parseManifest("", { allowAbsolute: false }).issues[0]).toMatchObject({ line: 1, column: "(header)" });
  });
});
