import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { needsPaperbenchPrompts, paperbenchInputFor, requirePaperbenchPrompts } from "./paperbench-mode";

const saved = process.env.PAPERBENCH_SRC_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.PAPERBENCH_SRC_DIR;
  else process.env.PAPERBENCH_SRC_DIR = saved;
});

describe("paperbench mode's availability", () => {
  it("only a model judge in paperbench mode needs PaperBench's prompts", () => {
    expect(needsPaperbenchPrompts({ kind: "llm", mode: "paperbench" })).toBe(true);
    expect(needsPaperbenchPrompts({ kind: "llm", mode: "efficient" })).toBe(false);
    expect(needsPaperbenchPrompts({ kind: "dummy", mode: "paperbench" })).toBe(false);
  });

  it("without PaperBench's source a paperbench-mode run or configuration is a 409 naming the path", async () => {
    process.env.PAPERBENCH_SRC_DIR = "/nonexistent/paperbench-checkout";
    const err = await requirePaperbenchPrompts().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("conflict");
    expect((err as AppError).message).toMatch(/^Paperbench mode is unavailable: .*\/nonexistent\/paperbench-checkout/);
    await expect(paperbenchInputFor({ kind: "llm", mode: "paperbench" })).rejects.toBeInstanceOf(AppError);
    // Efficient mode and the placeholder judges never read them.
    await expect(paperbenchInputFor({ kind: "llm", mode: "efficient" })).resolves.toBeUndefined();
  });
});
