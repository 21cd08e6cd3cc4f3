import { afterEach, describe, expect, it } from "vitest";
import { oauthProviders } from "./providers";

const KEYS = [
  "AUTH_GITHUB_ID",
  "AUTH_GITHUB_SECRET",
  "AUTH_OIDC_ISSUER",
  "AUTH_OIDC_ID",
  "AUTH_OIDC_SECRET",
  "AUTH_OIDC_NAME",
];
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe("OAuth providers", () => {
  it("are off without their environment variables", () => {
    for (const k of KEYS) delete process.env[k];
    expect(oauthProviders().info).toEqual([]);
  });

  it("switch on GitHub and a named OIDC provider when fully configured", () => {
    Object.assign(process.env, {
      AUTH_GITHUB_ID: "id",
      AUTH_GITHUB_SECRET: "secret",
      AUTH_OIDC_ISSUER: "https://sso.example.org",
      AUTH_OIDC_ID: "client",
      AUTH_OIDC_SECRET: "s",
      AUTH_OIDC_NAME: "Lab SSO",
    });
    const { providers, info } = oauthProviders();
    expect(info).toEqual([
      { id: "github", name: "GitHub" },
      { id: "oidc", name: "Lab SSO" },
    ]);
    expect(providers).toHaveLength(2);
  });

  it("stay off when half configured", () => {
    for (const k of KEYS) delete process.env[k];
    process.env.AUTH_GITHUB_ID = "id";
    process.env.AUTH_OIDC_ISSUER = "https://sso.example.org";
    expect(oauthProviders().info).toEqual([]);
  });
});
