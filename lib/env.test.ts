import { describe, expect, it } from "vitest";
import { readServerEnv } from "./env";

describe("readServerEnv", () => {
  it("treats empty variables as unset, so the embedded mode is the default", () => {
    expect(readServerEnv({ DATABASE_URL: "", DATA_DIR: "" })).toMatchObject({
      DATABASE_URL: undefined,
      DATA_DIR: undefined,
    });
  });

  it("accepts a PostgreSQL URL", () => {
    expect(readServerEnv({ DATABASE_URL: "postgresql://u@db:5432/x" }).DATABASE_URL).toBe("postgresql://u@db:5432/x");
  });

  it("names the variable that is wrong", () => {
    expect(() => readServerEnv({ DATABASE_URL: "mysql://u@db/x" })).toThrow(
      "Invalid environment: DATABASE_URL must be a postgres:// URL",
    );
    expect(() => readServerEnv({ AUTH_OIDC_ISSUER: "not a url" })).toThrow(
      /AUTH_OIDC_ISSUER must be the issuer's https:\/\/ URL/,
    );
  });
});
