import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getUserWithPaperAccess, type SessionRef } from "@/db/queries/papers";
import { AppError } from "@/lib/errors";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { accessByApiToken, createApiToken, listApiTokens } from "@/server/auth/api-tokens";
import { changePassword } from "./change-password";
import { createAccount } from "./create-account";
import { endSession, signOutEverywhere, startSession } from "@/server/auth/sessions";
import { setDisabled } from "./set-disabled";
import { verifyCredentials } from "./sign-in";

const PASSWORD = "correct horse battery staple";

describe.each(testDatabaseKinds())("sessions on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createAccount(handle.db, { email: "staff@sessions.test", isStaff: true })).id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  async function newUser(): Promise<{ id: string; email: string }> {
    const email = `user-${crypto.randomUUID()}@sessions.test`;
    return { id: (await createAccount(handle.db, { email, password: PASSWORD })).id, email };
  }
  const signIn = async (userId: string): Promise<SessionRef> => ({
    userId,
    sessionId: await startSession(handle, userId),
  });
  const live = async (session: SessionRef) => (await getUserWithPaperAccess(handle.db, session, undefined)) !== null;

  it("a session is live from sign-in, for its own user only", async () => {
    const a = await newUser();
    const b = await newUser();
    const session = await signIn(a.id);
    expect(await live(session)).toBe(true);
    expect(await live({ userId: b.id, sessionId: session.sessionId })).toBe(false);
    expect(await live({ userId: a.id, sessionId: crypto.randomUUID() })).toBe(false);
  });

  it("sign-out ends that session only", async () => {
    const user = await newUser();
    const [laptop, phone] = [await signIn(user.id), await signIn(user.id)];
    await endSession(handle, laptop.sessionId);
    expect(await live(laptop)).toBe(false);
    expect(await live(phone)).toBe(true);
  });

  it("an expired session is not live", async () => {
    const user = await newUser();
    const session = await signIn(user.id);
    await handle.db.execute(
      sql`UPDATE user_sessions SET expires_at = now() - interval '1 second' WHERE id = ${session.sessionId}`,
    );
    expect(await live(session)).toBe(false);
  });

  it("sign out everywhere ends every session of the user, and no one else's", async () => {
    const user = await newUser();
    const other = await newUser();
    const sessions = [await signIn(user.id), await signIn(user.id)];
    const others = await signIn(other.id);
    expect(await signOutEverywhere(handle, user.id)).toEqual({ ended: 2, endedTokens: 0 });
    for (const s of sessions) expect(await live(s)).toBe(false);
    expect(await live(others)).toBe(true);
    await expect(signOutEverywhere(handle, crypto.randomUUID())).rejects.toMatchObject({ code: "not_found" });
  });

  it("a password change ends the other sessions (all of them from the CLI) and the old password stops working", async () => {
    const user = await newUser();
    const [kept, other] = [await signIn(user.id), await signIn(user.id)];
    expect(
      await changePassword(handle, {
        email: user.email,
        password: "a brand new passphrase",
        keepSessionId: kept.sessionId,
      }),
    ).toEqual({ endedSessions: 1, endedTokens: 0 });
    expect(await live(kept)).toBe(true);
    expect(await live(other)).toBe(false);
    expect(await verifyCredentials(handle, user.email, PASSWORD)).toBeNull();
    expect((await verifyCredentials(handle, user.email, "a brand new passphrase"))?.id).toBe(user.id);
    await changePassword(handle, { email: user.email, password: "yet another passphrase" });
    expect(await live(kept)).toBe(false);
  });

  it("disabling a user ends their sessions and refuses sign-in until enabled", async () => {
    const user = await newUser();
    const session = await signIn(user.id);
    expect(await setDisabled(handle, { userId: user.id, disabled: true, by: staffId })).toEqual({ disabled: true });
    expect(await live(session)).toBe(false);
    expect(await verifyCredentials(handle, user.email, PASSWORD)).toBeNull();
    await expect(startSession(handle, user.id)).rejects.toMatchObject({ code: "forbidden" });

    await setDisabled(handle, { userId: user.id, disabled: false, by: staffId });
    expect(await live(session)).toBe(false); // ended sessions stay ended
    expect((await verifyCredentials(handle, user.email, PASSWORD))?.id).toBe(user.id);
    expect(await live(await signIn(user.id))).toBe(true);
  });

  it("a disabled user's session is refused even if its row was never revoked", async () => {
    const user = await newUser();
    const session = await signIn(user.id);
    await handle.db.execute(sql`UPDATE users SET disabled_at = now() WHERE id = ${user.id}`);
    expect(await live(session)).toBe(false);
  });

  it("staff cannot disable themselves, nor an unknown user", async () => {
    await expect(setDisabled(handle, { userId: staffId, disabled: true, by: staffId })).rejects.toThrow(AppError);
    await expect(setDisabled(handle, { userId: staffId, disabled: true, by: staffId })).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(
      setDisabled(handle, { userId: crypto.randomUUID(), disabled: true, by: staffId }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("a password change, sign out everywhere and disabling end every API token of the user, and no one else's", async () => {
    const tokenLive = async (token: string) => (await accessByApiToken(handle.db, token, undefined)) !== null;
    const other = await newUser();
    const othersToken = (await createApiToken(handle, { userId: other.id, name: "other's" })).token;
    for (const end of ["password", "sign out everywhere", "disable"] as const) {
      const user = await newUser();
      const kept = await signIn(user.id);
      const tokens = [
        (await createApiToken(handle, { userId: user.id, name: "laptop" })).token,
        (await createApiToken(handle, { userId: user.id, name: "ci" })).token,
      ];
      for (const t of tokens) expect(await tokenLive(t), end).toBe(true);
      if (end === "password") {
        expect(
          await changePassword(handle, {
            email: user.email,
            password: "a brand new passphrase",
            keepSessionId: kept.sessionId,
          }),
        ).toEqual({ endedSessions: 0, endedTokens: 2 });
        expect(await live(kept)).toBe(true);
      } else if (end === "sign out everywhere") {
        expect(await signOutEverywhere(handle, user.id)).toEqual({ ended: 1, endedTokens: 2 });
      } else {
        await setDisabled(handle, { userId: user.id, disabled: true, by: staffId });
        await setDisabled(handle, { userId: user.id, disabled: false, by: staffId });
      }
      // Ended for good: a new password or enabling again does not bring a token back.
      for (const t of tokens) expect(await tokenLive(t), end).toBe(false);
      expect(
        (await listApiTokens(handle, user.id)).every((t) => t.revokedAt !== null),
        end,
      ).toBe(true);
    }
    expect(await tokenLive(othersToken)).toBe(true);
  });
});
