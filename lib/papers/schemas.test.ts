import { describe, expect, it } from "vitest";
import { paperCreateSchema, paperUpdateSchema } from "./schemas";

describe("paper fields", () => {
  it("a PATCH names only the fields it changes: the others stay absent, not emptied", () => {
    expect(paperUpdateSchema.parse({ title: "  A new title " })).toEqual({ title: "A new title" });
    expect(paperUpdateSchema.parse({ blacklist: "https://a.example\n# note\n\nnone\n" })).toEqual({
      blacklist: ["https://a.example"],
    });
    expect(paperUpdateSchema.parse({})).toEqual({});
  });

  it("a PATCH still checks what it names", () => {
    const refused = paperUpdateSchema.safeParse({ title: "" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ["title"], message: "is required" });
  });

  it("a new paper starts with empty texts and no blacklist", () => {
    expect(paperCreateSchema.parse({ id: "pinn", title: "PINN" })).toEqual({
      id: "pinn",
      title: "PINN",
      paperMarkdown: "",
      addendum: "",
      judgeAddendum: "",
      blacklist: [],
    });
  });
});
