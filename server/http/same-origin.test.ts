import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { assertSameOrigin } from "./same-origin";

const request = (method: string, headers: Record<string, string>) =>
  new Request("http://studio.test:3000/api/papers", { method, headers });

const refusal = (req: Request): string | null => {
  try {
    assertSameOrigin(req);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("cross_origin");
    expect((err as AppError).status).toBe(403);
    return (err as AppError).message;
  }
};

describe("assertSameOrigin", () => {
  it("lets reads through from anywhere", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"])
      expect(refusal(request(method, { host: "studio.test:3000", origin: "http://evil.test" }))).toBeNull();
  });

  it("lets a change through from the studio's own pages (Origin = Host, or Sec-Fetch-Site: same-origin)", () => {
    expect(refusal(request("POST", { host: "studio.test:3000", origin: "http://studio.test:3000" }))).toBeNull();
    expect(refusal(request("DELETE", { host: "Studio.Test:3000", origin: "http://studio.test:3000" }))).toBeNull();
    expect(
      refusal(
        request("PATCH", {
          host: "studio.test:3000",
          "sec-fetch-site": "same-origin",
          origin: "http://studio.test:3000",
        }),
      ),
    ).toBeNull();
    // Behind a proxy: the host the browser addressed is in X-Forwarded-Host.
    expect(
      refusal(
        request("PUT", {
          host: "127.0.0.1:3000",
          "x-forwarded-host": "rubrics.example.org",
          origin: "https://rubrics.example.org",
        }),
      ),
    ).toBeNull();
  });

  it("refuses a change from another port, subdomain or site of the same host, and from an opaque origin", () => {
    for (const origin of ["http://studio.test:3001", "http://evil.studio.test:3000", "http://evil.test", "null"]) {
      expect(refusal(request("POST", { host: "studio.test:3000", origin })), origin).toContain("another origin");
    }
  });

  it("refuses a change the browser says came from another page (Sec-Fetch-Site), whatever Origin says", () => {
    for (const site of ["same-site", "cross-site", "none"]) {
      expect(
        refusal(
          request("POST", { host: "studio.test:3000", origin: "http://studio.test:3000", "sec-fetch-site": site }),
        ),
        site,
      ).toContain(site);
    }
  });

  it("lets a change through that carries neither header (not a browser: curl, scripts)", () => {
    expect(refusal(request("POST", { host: "studio.test:3000" }))).toBeNull();
  });
});
