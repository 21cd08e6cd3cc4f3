/**
 * Sign-in throttling (issue 10, item 10), through the real credentials callback of the built
 * studio, on PGlite and on PostgreSQL when DATABASE_URL is set (CI sets it; CI=true without it
 * fails, it does not skip). On PostgreSQL two instances share one database, and so one throttle.
 *
 * Clients are told apart by X-Forwarded-For: the studio keys a client by the header's last entry
 * (server/auth/throttle.ts), which a request from the test sets like a reverse proxy would.
 * Keys that must be deep in their backoff (so that their wait outlasts any slowness of a busy
 * machine) are given their past failures in the database before the studio starts.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { signInThrottle } from "@/db/schema";
import { retryAfterFromCode } from "@/lib/auth/sign-in-throttle";
import { AUTHOR, STAFF, prepareDatabase, startStudio, type PreparedDatabase, type Studio } from "./harness";

interface Attempt {
  signedIn: boolean;
  /** The code of a refused sign-in (`invalid_credentials`, `too_many_attempts:<s>`), from the redirect to the sign-in page. */
  code: string | null;
}

/** One password sign-in as a browser posts it (CSRF token, then the form), from client address `address`. */
async function attemptSignIn(baseUrl: string, email: string, password: string, address: string): Promise<Attempt> {
  const headers = { "x-forwarded-for": address };
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers });
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${baseUrl}/` }),
  });
  await res.arrayBuffer();
  const signedIn = res.headers.getSetCookie().some((line) => line.includes("session-token="));
  const location = new URL(res.headers.get("location") ?? "/", baseUrl);
  return { signedIn, code: location.pathname === "/signin" ? location.searchParams.get("code") : null };
}

const wait = (attempt: Attempt) => retryAfterFromCode(attempt.code ?? undefined);

// Keys given ten failures (twenty-five for the address) whose last wait has just ended: the next
// failure starts a wait of 64 s, far longer than any step of these tests. Each test has its own keys.
const DEEP_ACCOUNT = AUTHOR.email;
const DEEP_ADDRESS = "203.0.113.9";
const GRADER = { email: "grader@demo.rubric.studio", password: "grader-demo-pass" };

function securitySignInSuite(kind: "pglite" | "postgres") {
  describe(`sign-in throttling on ${kind}`, () => {
    let db: PreparedDatabase | undefined;
    /** Two instances on PostgreSQL; on PGlite (one process per data directory) `b` is `a`. */
    let a: Studio;
    let b: Studio;

    beforeAll(async () => {
      db = await prepareDatabase(kind, 2, "sign-in");
      const handle = await openDatabase(
        kind === "pglite" ? { dataDir: db.env.DATA_DIR } : { databaseUrl: db.env.DATABASE_URL },
      );
      try {
        await handle.db.insert(signInThrottle).values([
          { key: `account:${DEEP_ACCOUNT}`, failures: 10, lastFailureAt: sql`now()`, blockedUntil: sql`now()` },
          { key: `account:${GRADER.email}`, failures: 10, lastFailureAt: sql`now()`, blockedUntil: sql`now()` },
          { key: `ip:${DEEP_ADDRESS}`, failures: 25, lastFailureAt: sql`now()`, blockedUntil: sql`now()` },
        ]);
      } finally {
        await handle.close();
      }
      a = await startStudio(db.env);
      b = kind === "postgres" ? await startStudio(db.env) : a;
    });

    afterAll(async () => {
      await b?.stop();
      await a?.stop();
      await db?.drop();
    });

    it("a password can be guessed five times in a row, then the sign-in page asks to wait instead of a sixth answer", async () => {
      const [user] = db!.users;
      const answers: Attempt[] = [];
      // From a different address each time: the account's own count does it.
      for (let i = 0; i < 5; i++)
        answers.push(await attemptSignIn(a.url, user.email, `wrong guess ${i}`, `198.51.100.${i}`));
      expect(answers.map((x) => x.code)).toEqual([...Array(4).fill("invalid_credentials"), "too_many_attempts:1"]);
      expect(answers.some((x) => x.signedIn)).toBe(false);

      // The sign-in page puts it in words.
      const page = await (
        await fetch(`${a.url}/signin?error=CredentialsSignin&code=${encodeURIComponent(answers[4].code!)}`)
      ).text();
      expect(page).toContain("Too many failed sign-in attempts. Try again in 1 s.");
    });

    it("a blocked account refuses even the right password", async () => {
      const first = await attemptSignIn(a.url, DEEP_ACCOUNT, "wrong again", "198.51.100.50");
      expect(first).toEqual({ signedIn: false, code: "too_many_attempts:64" });
      const right = await attemptSignIn(a.url, DEEP_ACCOUNT, AUTHOR.password, "198.51.100.51");
      expect(right.signedIn).toBe(false);
      expect(wait(right)).toBeGreaterThan(0);
    });

    it("an address that fails on many accounts is refused on every account, and other addresses are not", async () => {
      const first = await attemptSignIn(a.url, "nobody@example.org", "wrong", DEEP_ADDRESS);
      expect(first).toEqual({ signedIn: false, code: "too_many_attempts:64" });
      const staff = await attemptSignIn(a.url, STAFF.email, STAFF.password, DEEP_ADDRESS);
      expect(staff.signedIn).toBe(false);
      expect(wait(staff)).toBeGreaterThan(0);
      expect(await attemptSignIn(a.url, STAFF.email, STAFF.password, "198.51.100.60")).toEqual({
        signedIn: true,
        code: null,
      });
    });

    it("a successful sign-in starts the account's count afresh", async () => {
      const user = db!.users[1];
      const wrong = () => attemptSignIn(a.url, user.email, "wrong", "198.51.100.70");
      for (let i = 0; i < 4; i++) expect((await wrong()).code).toBe("invalid_credentials");
      expect((await attemptSignIn(a.url, user.email, user.password, "198.51.100.70")).signedIn).toBe(true);
      // Four more wrong passwords are plain failures again, not a wait.
      for (let i = 0; i < 4; i++) expect((await wrong()).code).toBe("invalid_credentials");
    });

    // Only PostgreSQL has two instances (PGlite has one owner); the test is not listed on PGlite rather than skipped.
    if (kind === "postgres") {
      it("a wait started on one instance holds on the other", async () => {
        expect(await attemptSignIn(a.url, GRADER.email, "wrong", "198.51.100.80")).toEqual({
          signedIn: false,
          code: "too_many_attempts:64",
        });
        const onB = await attemptSignIn(b.url, GRADER.email, GRADER.password, "198.51.100.81");
        expect(onB.signedIn).toBe(false);
        expect(wait(onB)).toBeGreaterThan(0);
      });
    }
  });
}

securitySignInSuite("pglite");
if (process.env.DATABASE_URL) securitySignInSuite("postgres");
else if (process.env.CI === "true") {
  describe("sign-in throttling on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error(
        "CI=true but DATABASE_URL is not set: the PostgreSQL half of the sign-in security suite cannot run",
      );
    });
  });
}
