import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { getUserWithPaperAccessByApiToken, listApiTokensByUserId } from "@/db/queries/api-tokens";
import { getUserWithPaperAccess } from "@/db/queries/papers";
import { getUserByEmail } from "@/db/queries/users";
import { hashToken } from "@/server/auth/token-hash";
import { createAccount } from "@/server/users/create-account";
import { createApiToken } from "@/server/auth/api-tokens";
import { startSession } from "@/server/auth/sessions";
import { verifyCredentials } from "@/server/users/sign-in";
import { testDatabaseKinds } from "@/test/databases";
import { cliEnvironment, runCli } from "./cli.testutil";

const PASSWORD = "the first long password";

// Each test spawns the CLI (tsx start-up) and opens the database in between: slow on a loaded machine.
describe.each(testDatabaseKinds())(
  "user CLI: passwords, disabling, sign-out everywhere, on %s",
  { timeout: 240_000 },
  (kind) => {
    const env = cliEnvironment(kind, "cli-sessions");

    const user = (extraEnv: Record<string, string>, ...args: string[]) =>
      runCli({ ...env, ...extraEnv }, "user", ...args);
    /** Runs `fn` on the database while no CLI holds it (the embedded one has one owner at a time). */
    async function withDb<T>(fn: (handle: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
      const handle = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR! });
      try {
        return await fn(handle);
      } finally {
        await handle.close();
      }
    }
    /** A new user with two live sessions and a personal API token (its hash beside them). */
    const userWithSessions = (email: string) =>
      withDb(async (handle) => {
        const { id } = await createAccount(handle.db, { email, password: PASSWORD });
        const { token } = await createApiToken(handle, { userId: id, name: "laptop" });
        return [
          { userId: id, sessionId: await startSession(handle, id), tokenHash: hashToken(token) },
          { userId: id, sessionId: await startSession(handle, id), tokenHash: hashToken(token) },
        ];
      });
    /** Live sessions, and the API token (counted once). */
    const liveSessions = (sessions: { userId: string; sessionId: string; tokenHash: string }[]) =>
      withDb(async (handle) => {
        let live = 0;
        for (const s of sessions) if (await getUserWithPaperAccess(handle.db, s, undefined)) live++;
        if (await getUserWithPaperAccessByApiToken(handle.db, sessions[0].tokenHash, undefined)) live++;
        return live;
      });

    it("sign-out ends every session and API token of the user", async () => {
      const sessions = await userWithSessions("out@example.org");
      const out = user({}, "sign-out", "out@example.org");
      expect([out.status, out.stdout.trim()]).toEqual([0, "ended 2 session(s) and 1 API token(s) of out@example.org"]);
      expect(await liveSessions(sessions)).toBe(0);
    });

    it("password sets a new password (under the same rules as add) and ends every session and API token", async () => {
      const sessions = await userWithSessions("pass@example.org");
      const weak = user({ STUDIO_PASSWORD: "12345678" }, "password", "pass@example.org");
      expect([weak.status, weak.stderr]).toEqual([
        2,
        expect.stringContaining("the password must have at least 12 characters"),
      ]);
      expect(await liveSessions(sessions)).toBe(3);

      const changed = user({ STUDIO_PASSWORD: "the second long password" }, "password", "pass@example.org");
      expect([changed.status, changed.stdout.trim()]).toEqual([
        0,
        "changed the password of pass@example.org; ended 2 session(s) and 1 API token(s)",
      ]);
      expect(await liveSessions(sessions)).toBe(0);
      await withDb(async (handle) => {
        expect(await verifyCredentials(handle, "pass@example.org", PASSWORD)).toBeNull();
        expect(await verifyCredentials(handle, "pass@example.org", "the second long password")).not.toBeNull();
      });
    });

    it("disable ends every session and API token and refuses sign-in; enable allows it again", async () => {
      const sessions = await userWithSessions("off@example.org");
      expect(user({}, "disable", "off@example.org").status).toBe(0);
      expect(await liveSessions(sessions)).toBe(0);
      await withDb(async (handle) => {
        expect((await getUserByEmail(handle.db, "off@example.org"))?.disabledAt).toBeInstanceOf(Date);
        expect(await verifyCredentials(handle, "off@example.org", PASSWORD)).toBeNull();
      });
      expect(user({}, "enable", "off@example.org").status).toBe(0);
      await withDb(async (handle) =>
        expect(await verifyCredentials(handle, "off@example.org", PASSWORD)).not.toBeNull(),
      );
    });

    it("token prints only a new personal API token of the user, named by --name, and it is live", async () => {
      await userWithSessions("cli-token@example.org");
      const made = user({}, "token", "cli-token@example.org", "--name", "ci runner");
      expect(made.status).toBe(0);
      expect(made.stdout).toMatch(/^rst_user_[A-Za-z0-9_-]{43}\n$/);
      const access = await withDb((handle) =>
        getUserWithPaperAccessByApiToken(handle.db, hashToken(made.stdout.trim()), undefined),
      );
      expect(access?.user.email).toBe("cli-token@example.org");
      const tokens = await withDb((handle) => listApiTokensByUserId(handle.db, access!.user.id));
      expect(tokens.map((t) => t.name)).toEqual(["ci runner", "laptop"]);
      expect(user({}, "token", "nobody@example.org").status).toBe(2);
    });

    it("an unknown email is a usage error (exit 2) naming it", () => {
      const unknown = user({}, "disable", "nobody@example.org");
      expect([unknown.status, unknown.stderr]).toEqual([
        2,
        expect.stringContaining("no user with email nobody@example.org"),
      ]);
    });
  },
);
