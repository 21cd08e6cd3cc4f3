import { describe, expect, it } from "vitest";
import { appendChunk, emptyAttemptLog, findMatches, partialLine } from "./log-model";

describe("the log model", () => {
  it("joins chunks into lines, keeps the unfinished line apart and ignores a resent chunk", () => {
    let log = appendChunk(emptyAttemptLog(), 0, "step 1\nste");
    log = appendChunk(log, 1, "p 2\nstep 3");
    expect(log.lines.map((l) => l.plain)).toEqual(["step 1", "step 2"]);
    expect(partialLine(log)?.plain).toBe("step 3");
    expect(appendChunk(log, 1, "again\n")).toBe(log);
  });

  it("reads ANSI colours, carries them across lines, and keeps markup as text", () => {
    const log = appendChunk(emptyAttemptLog(), 0, "\u001b[31merror <b>x</b>\nstill red\u001b[0m ok\n");
    const [first, second] = log.lines;
    expect(first.plain).toBe("error <b>x</b>");
    expect(first.segments[0].fg).toBe("187, 0, 0");
    expect(second.segments[0]).toMatchObject({ text: "still red", fg: "187, 0, 0" });
    expect(second.segments[1]).toMatchObject({ text: " ok", fg: null });
  });

  it("shows a progress bar's last state and finds matches case-insensitively", () => {
    const log = appendChunk(emptyAttemptLog(), 0, "10%\r50%\r100%\r\nLoss 0.5 loss 0.4\n");
    expect(log.lines[0].plain).toBe("100%");
    expect(findMatches(log.lines, "LOSS")).toEqual([
      { line: 1, start: 0 },
      { line: 1, start: 9 },
    ]);
    expect(findMatches(log.lines, "")).toEqual([]);
  });
});
