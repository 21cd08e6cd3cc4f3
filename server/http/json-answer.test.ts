import { describe, expect, it } from "vitest";
import { COMPRESS_FROM_BYTES, jsonAnswer } from "./json-answer";

describe("jsonAnswer", () => {
  it("marks an answer under the threshold no-transform, so it is sent uncompressed", async () => {
    const res = jsonAnswer({ revision: 7, inverse: { kind: "update" } }, { status: 201 });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-transform");
    expect(await res.json()).toEqual({ revision: 7, inverse: { kind: "update" } });
  });

  it("leaves an answer at the threshold or over it to be compressed", async () => {
    // `{"t":"…"}` is 8 bytes around the text: exactly the threshold, then one byte under it.
    const atThreshold = jsonAnswer({ t: "x".repeat(COMPRESS_FROM_BYTES - 8) });
    expect(atThreshold.headers.get("cache-control")).toBeNull();
    expect((await atThreshold.text()).length).toBe(COMPRESS_FROM_BYTES);
    expect(jsonAnswer({ t: "x".repeat(COMPRESS_FROM_BYTES - 9) }).headers.get("cache-control")).toBe("no-transform");
  });

  it("counts bytes, not characters: text of many-byte characters under 1,024 characters is compressed", () => {
    expect(jsonAnswer({ t: "é".repeat(600) }).headers.get("cache-control")).toBeNull();
  });

  it("keeps the caller's headers and adds to its Cache-Control", () => {
    const res = jsonAnswer({ ok: true }, { status: 503, headers: { "cache-control": "no-store", "retry-after": "3" } });
    expect(res.status).toBe(503);
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("content-type")).toBe("application/json");
    const typed = jsonAnswer({ ok: true }, { headers: { "content-type": "application/problem+json" } });
    expect(typed.headers.get("content-type")).toBe("application/problem+json");
  });
});
