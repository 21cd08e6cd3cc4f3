import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSplits } from "@/lib/leaderboard/splits";
import { PAPERBENCH_DATA_DIR, requirePaperBenchData, skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import { paperBenchDataDir, readDataSplits } from "./data-splits";

describe("readDataSplits", () => {
  it("reads the data folder's split files, none for a folder without them", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "splits-"));
    try {
      expect(readDataSplits(dir, 0)).toEqual({});
      fs.mkdirSync(path.join(dir, "splits"));
      fs.writeFileSync(path.join(dir, "splits", "lite.txt"), "a\nb\n");
      // Re-read only after 30 s.
      expect(readDataSplits(dir, 1_000)).toEqual({});
      expect(readDataSplits(dir, 31_000)).toEqual({ lite: ["a", "b"] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(paperBenchDataDir({ PAPERBENCH_DATA_DIR: "/data/pb" })).toBe("/data/pb");
    expect(paperBenchDataDir({})).toBe(path.resolve(process.cwd(), "../shared/paperbench"));
  });

  it.skipIf(skipWithoutData)("offers PaperBench's published splits", () => {
    requirePaperBenchData();
    const splits = resolveSplits(readDataSplits(PAPERBENCH_DATA_DIR), []);
    expect(splits[0].name).toBe("all");
    expect(splits[0].paperIds).toHaveLength(20);
    expect(splits.map((s) => s.name)).toContain("lite");
  });
});
