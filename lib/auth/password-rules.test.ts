import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { assertNewCredentials, newCredentialsProblems, passwordProblem } from "./password-rules";

describe("passwordProblem", () => {
  it("refuses what `user add` used to take: eight spaces, 12345678", () => {
    expect(passwordProblem("        ")).toBe("must have at least 12 characters (it has 8)");
    expect(passwordProblem("12345678")).toBe("must have at least 12 characters (it has 8)");
  });

  it("refuses twelve characters that are few different ones (spaces, one key held down)", () => {
    expect(passwordProblem(" ".repeat(12))).toBe("must use at least 5 different characters");
    expect(passwordProblem("abababababab")).toBe("must use at least 5 different characters");
  });

  it("refuses a long password from the common-password list, whatever its case", () => {
    expect(passwordProblem("123456789012")).toMatch(/most common passwords/);
    expect(passwordProblem("QwErTy123456")).toMatch(/most common passwords/);
  });

  it("counts characters, not UTF-16 units", () => {
    expect(passwordProblem("🔑🔑🔑🔑🔑🔑abcd")).toBe("must have at least 12 characters (it has 10)");
  });

  it("takes a long uncommon password, and the demo users' passwords", () => {
    expect(passwordProblem("correct horse battery staple")).toBeNull();
    for (const demo of ["staff-demo-pass", "author-demo-pass", "grader-demo-pass"])
      expect(passwordProblem(demo)).toBeNull();
  });

  it("refuses what sign-in would not take (over 1,000 characters)", () => {
    expect(passwordProblem("x1y2z3".repeat(200))).toBe("must have at most 1000 characters");
  });
});

describe("newCredentialsProblems", () => {
  it("names each bad field", () => {
    expect(newCredentialsProblems({ email: "not-an-email", password: "12345678" })).toEqual([
      { path: "email", message: 'the email must be an email address like name@example.org (got "not-an-email")' },
      { path: "password", message: "the password must have at least 12 characters (it has 8)" },
    ]);
    expect(newCredentialsProblems({ email: " Ada@Example.org " })).toEqual([]);
  });

  it("is a 400 with the problems when asserted", () => {
    const refused = (() => {
      try {
        assertNewCredentials({ email: "ada@example.org", password: "password1234" });
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, details: [{ path: "password" }] });
  });
});
