import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { openDatabase, type DbHandle } from "@/db/client";
import { signInThrottle } from "@/db/schema";
import { FREE_FAILURES } from "@/lib/auth/sign-in-throttle";
import { createAccount } from "@/server/users/create-account";
import { signInWithPassword } from "@/server/users/sign-in";
import { openTestDatabase, openTestPostgresDatabase, testDatabaseKinds } from "@/test/databases";
import { claimSignInAttempt } from "./throttle";

const PASSWORD = "correct horse battery staple";

/** Ends a key's block now, as if its wait had passed (the tests do not sleep through backoffs). */
async function endBlock(handle: DbHandle, key: string): Promise<void> {
  await handle.db
    .update(signInThrottle)
    .set({ blockedUntil: sql`now()` })
    .where(eq(signInThrottle.key, key));
}

/** A key with `failures` failures whose block has just ended. */
async function afterBlock(handle: DbHandle, key: string, failures: number): Promise<void> {
  await handle.db.insert(signInThrottle).values({ key, failures, lastFailureAt: sql`now()`, blockedUntil: sql`now()` });
}

/** Makes a key wait `seconds` from now, as a later failure would (the tests do not race a 1-second block). */
async function blockFor(handle: DbHandle, key: string, seconds: number): Promise<void> {
  await handle.db
    .update(signInThrottle)
    .set({ blockedUntil: sql`now() + make_interval(secs => ${seconds})` })
    .where(eq(signInThrottle.key, key));
}

async function row(handle: DbHandle, key: string) {
  const [found] = await handle.db.select().from(signInThrottle).where(eq(signInThrottle.key, key));
  return found ?? null;
}

describe.each(testDatabaseKinds())("sign-in throttling on %s", (kind) => {
  let handle: DbHandle;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    for (const name of ["ada", "bob", "cy", "dee"])
      await createAccount(handle.db, { email: `${name}@example.org`, password: PASSWORD });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("thirty wrong passwords sent at once, after a block ended, get one guess; the others are told to wait", async () => {
    // Ten failures, the last block just over: the next failure blocks for 64 s, far longer than this test runs.
    await afterBlock(handle, "account:ada@example.org", FREE_FAILURES.account + 5);
    const claims = await Promise.all(
      Array.from({ length: 30 }, () => claimSignInAttempt(handle, "ada@example.org", null)),
    );
    expect(claims.filter((c) => c.allowed)).toHaveLength(1);
    const waits = claims.flatMap((c) => (c.allowed ? [] : [c.retryAfterSeconds]));
    expect(Math.min(...waits)).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(64);
    expect(await row(handle, "account:ada@example.org")).toMatchObject({ failures: FREE_FAILURES.account + 6 });
  });

  it("five wrong passwords start a wait, and the fifth answer says how long", async () => {
    const email = "bob@example.org";
    for (let i = 0; i < FREE_FAILURES.account - 1; i++) {
      expect(await signInWithPassword(handle, { email, password: "wrong", address: "10.0.0.1" })).toEqual({
        ok: false,
        retryAfterSeconds: null,
      });
    }
    expect(await signInWithPassword(handle, { email, password: "wrong", address: "10.0.0.1" })).toEqual({
      ok: false,
      retryAfterSeconds: 1,
    });
    expect(await row(handle, `account:${email}`)).toMatchObject({ failures: FREE_FAILURES.account });
  });

  it("a blocked account refuses even the right password, and signs in once the wait is over", async () => {
    const email = "bob@example.org";
    const key = `account:${email}`;
    await blockFor(handle, key, 600);
    const refused = await signInWithPassword(handle, {
      email: "BOB@example.org",
      password: PASSWORD,
      address: "10.0.0.2",
    });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThan(590);

    await endBlock(handle, key);
    const signedIn = await signInWithPassword(handle, { email, password: PASSWORD, address: "10.0.0.2" });
    expect(signedIn.ok).toBe(true);
    // Success starts the account afresh.
    expect(await row(handle, key)).toBeNull();
  });

  it("a client address that fails on many accounts is blocked on every account; its own successes do not count", async () => {
    const address = "192.0.2.7";
    // A success from the address gives its attempt back.
    expect((await signInWithPassword(handle, { email: "cy@example.org", password: PASSWORD, address })).ok).toBe(true);
    for (let i = 0; i < FREE_FAILURES.address - 1; i++) {
      const email = `nobody-${i}@example.org`;
      expect(await signInWithPassword(handle, { email, password: "wrong", address })).toEqual({
        ok: false,
        retryAfterSeconds: null,
      });
    }
    expect(await row(handle, `ip:${address}`)).toMatchObject({
      failures: FREE_FAILURES.address - 1,
      blockedUntil: null,
    });
    expect(await signInWithPassword(handle, { email: "nobody-x@example.org", password: "wrong", address })).toEqual({
      ok: false,
      retryAfterSeconds: 1,
    });
    await blockFor(handle, `ip:${address}`, 600);
    const refused = await signInWithPassword(handle, { email: "dee@example.org", password: PASSWORD, address });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThan(590);
    // Another address is not affected.
    expect(
      (await signInWithPassword(handle, { email: "dee@example.org", password: PASSWORD, address: "192.0.2.8" })).ok,
    ).toBe(true);
  });
});

const SHARED = "sign-in throttling shared by two instances on one PostgreSQL database";
if (!process.env.DATABASE_URL) {
  describe(SHARED, () => {
    // In CI the PostgreSQL path must run: a skip there would hide it.
    it.runIf(process.env.CI === "true")("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set");
    });
    it.skipIf(process.env.CI === "true")("needs DATABASE_URL", () => {});
  });
} else
  describe(SHARED, () => {
    let a: DbHandle & { url: string };
    let b: DbHandle;

    beforeAll(async () => {
      a = await openTestPostgresDatabase();
      b = await openDatabase({ databaseUrl: a.url });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it("attempts sent at once to both instances, after a block ended, get one guess in all", async () => {
      await afterBlock(a, "account:shared@example.org", FREE_FAILURES.account + 5);
      const claims = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          claimSignInAttempt(i % 2 === 0 ? a : b, "shared@example.org", `198.51.100.${i}`),
        ),
      );
      expect(claims.filter((c) => c.allowed)).toHaveLength(1);
      expect(await row(b, "account:shared@example.org")).toMatchObject({ failures: FREE_FAILURES.account + 6 });
    });
  });
