import { describe, expect, it } from "vitest";
import { SealError, sealSecret, unsealSecret } from "./seal";

const SECRET = "an-auth-secret-for-the-test-0123456789";

describe("sealing a paper secret", () => {
  it("opens what it sealed, and the sealed text holds no plain value", () => {
    const plain = "hf_abc123 ünïcødé 🔑";
    const sealed = sealSecret(plain, SECRET);
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(sealed).not.toContain("hf_abc123");
    expect(Buffer.from(sealed.slice(3), "base64url").toString("latin1")).not.toContain("hf_abc123");
    expect(unsealSecret(sealed, SECRET)).toBe(plain);
  });

  it("seals the same value differently each time (a fresh iv)", () => {
    expect(sealSecret("same", SECRET)).not.toBe(sealSecret("same", SECRET));
  });

  it("refuses a sealed text with any byte altered", () => {
    const sealed = sealSecret("hf_abc123", SECRET);
    const bytes = Buffer.from(sealed.slice(3), "base64url");
    for (const at of [0, 12, 28, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[at] ^= 1;
      expect(() => unsealSecret("v1." + altered.toString("base64url"), SECRET)).toThrow(SealError);
    }
  });

  it("refuses a text sealed under another AUTH_SECRET, naming no value", () => {
    const sealed = sealSecret("hf_abc123", SECRET);
    expect(() => unsealSecret(sealed, "another-auth-secret")).toThrow(/another AUTH_SECRET/);
    try {
      unsealSecret(sealed, "another-auth-secret");
    } catch (err) {
      expect(String(err)).not.toContain("hf_abc123");
    }
  });

  it("refuses text of an unknown version or too short", () => {
    expect(() => unsealSecret("v2.AAAA", SECRET)).toThrow(/known version/);
    expect(() => unsealSecret("v1.AAAA", SECRET)).toThrow(/too short/);
  });
});
