/**
 * What an email and a password must be when an account gets them (CLI `user add`, a password
 * change, the seed). Never applied at sign-in: an account whose password predates a rule can
 * still sign in with it.
 */
import { dictionary } from "@zxcvbn-ts/language-common";
import { z } from "zod";
import { AppError, type ErrorDetail } from "@/lib/errors";

export const MIN_PASSWORD_LENGTH = 12;
/** The most sign-in accepts (auth.ts): a longer password could be set but never used. */
export const MAX_PASSWORD_LENGTH = 1000;
const MIN_DISTINCT_CHARACTERS = 5;

// zxcvbn-ts's list of the ~50,000 most common passwords (from leaked password sets), shipped in the
// package. Built on first use: most processes (every request but a password change) never need it.
let commonPasswords: Set<string> | null = null;
const isCommonPassword = (password: string) =>
  (commonPasswords ??= new Set(dictionary["passwords-common"])).has(password.toLowerCase());

/** What is wrong with a new password, or null when it may be used. */
export function passwordProblem(password: string): string | null {
  const characters = [...password];
  if (characters.length < MIN_PASSWORD_LENGTH) {
    return `must have at least ${MIN_PASSWORD_LENGTH} characters (it has ${characters.length})`;
  }
  if (characters.length > MAX_PASSWORD_LENGTH) return `must have at most ${MAX_PASSWORD_LENGTH} characters`;
  if (new Set(characters).size < MIN_DISTINCT_CHARACTERS) {
    return `must use at least ${MIN_DISTINCT_CHARACTERS} different characters`;
  }
  if (isCommonPassword(password)) return "is one of the most common passwords: choose another";
  return null;
}

const emailSchema = z.email();

/** What is wrong with an account's email, or null. */
export function emailProblem(email: string): string | null {
  return emailSchema.safeParse(email.trim()).success
    ? null
    : `must be an email address like name@example.org (got ${JSON.stringify(email)})`;
}

/** Each problem of a new account's email and password (none given: no password to check), by field. */
export function newCredentialsProblems(input: { email: string; password?: string }): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const email = emailProblem(input.email);
  if (email) problems.push({ path: "email", message: `the email ${email}` });
  const password = input.password === undefined ? null : passwordProblem(input.password);
  if (password) problems.push({ path: "password", message: `the password ${password}` });
  return problems;
}

/** Refuses (400, each problem by field) an email or password an account may not get. */
export function assertNewCredentials(input: { email: string; password?: string }): void {
  const problems = newCredentialsProblems(input);
  if (problems.length > 0) throw new AppError("bad_request", problems.map((p) => p.message).join("; "), problems);
}
