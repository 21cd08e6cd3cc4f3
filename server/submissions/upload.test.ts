import { describe, expect, it } from "vitest";
import { readGradingUpload } from "./upload";

describe("reading a grading upload", () => {
  it("keeps the names of a multipart upload less any NUL, which the database cannot store", async () => {
    const form = new FormData();
    form.set("agent", "agent");
    form.set("run", "1");
    form.set("file", new File(['{"id": "x"}'], "grader\u0000output.json", { type: "application/json" }));
    form.set("submission", new File([new Uint8Array([1, 2, 3])], "run\u0000.zip"));
    const upload = await readGradingUpload(
      new Request("http://localhost/api/gradings", { method: "POST", body: form }),
    );
    expect(upload.fileName).toBe("grader\uFFFDoutput.json");
    expect(upload.archive?.name).toBe("run\uFFFD.zip");
  });

  it("refuses a NUL in a JSON upload's file name, naming the field", async () => {
    const body = JSON.stringify({ agent: "a", run: 1, file: "{}", fileName: "x\u0000.json" });
    const req = new Request("http://localhost/api/gradings", {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    const err = await readGradingUpload(req).catch((e: unknown) => e);
    expect(JSON.stringify((err as { issues: unknown }).issues)).toContain('"path":["fileName"]');
  });
});
