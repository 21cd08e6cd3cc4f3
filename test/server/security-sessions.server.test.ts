/**
 * Sessions end when they should (issue 10, item 6; API tokens with them, issue 19 item 11), against the built studio over HTTP, on PGlite
 * and on PostgreSQL when DATABASE_URL is set (CI sets it; CI=true without it fails, it does not
 * skip): a session cookie saved before sign-out, a password change, disabling the user, or "sign
 * out everywhere" is refused at once (401 from the API, the sign-in page for pages), and a cookie
 * from before sessions were rows (no session id) is refused too.
 */
import { decode, encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_PAPER_ID, api, signIn, type TestUser } from "./harness";
import { signOut } from "./sign-out";
import { studioSuite } from "./studio-suite";

function securitySessionsSuite(kind: "pglite" | "postgres") {
  describe(`sessions on ${kind}`, () => {
    const studio = studioSuite(kind, "sessions", { extraUsers: 12 });
    /** Authors of the demo paper, one per test (a test ends their sessions). */
    let authors: TestUser[];
    const ids = new Map<string, string>();

    beforeAll(async () => {
      authors = studio.db.users.filter((u) => !u.staff);
      const members = await api<{ members: { userId: string; email: string }[] }>(
        studio.url,
        studio.staff,
        "GET",
        `/api/papers/${DEMO_PAPER_ID}/members`,
      );
      for (const m of members.body.members) ids.set(m.email, m.userId);
    });

    const author = (i: number) => {
      const user = authors[i];
      return { ...user, id: ids.get(user.email)! };
    };
    /** A request with a personal API token instead of a cookie. */
    const bearer = async (token: string, method: string, url: string) => {
      const res = await fetch(`${studio.url}${url}`, { method, headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as unknown };
    };
    const tokenStatus = async (token: string) => (await bearer(token, "GET", "/api/papers")).status;
    const newToken = async (cookie: string) => {
      const made = await api<{ token: string }>(studio.url, cookie, "POST", "/api/users/me/tokens", { name: "laptop" });
      expect(made.status).toBe(201);
      return made.body.token;
    };
    /** The status of an API read and of a page with this cookie. */
    const apiStatus = async (cookie: string) => (await api(studio.url, cookie, "GET", "/api/papers")).status;
    const pageGoesToSignIn = async (cookie: string) => {
      const res = await fetch(`${studio.url}/papers/${DEMO_PAPER_ID}/rubric`, {
        headers: { cookie },
        redirect: "manual",
      });
      await res.arrayBuffer();
      return (res.headers.get("location") ?? "").includes("/signin");
    };

    it("a session cookie saved before sign-out is refused after it, and the user's other sessions go on", async () => {
      const user = author(0);
      const saved = await signIn(studio.url, user.email, user.password);
      const other = await signIn(studio.url, user.email, user.password);
      expect(await apiStatus(saved)).toBe(200);
      expect(await pageGoesToSignIn(saved)).toBe(false);
      const authSession = async (cookie: string) =>
        (await api<{ user?: unknown } | null>(studio.url, cookie, "GET", "/api/auth/session")).body;
      expect(await authSession(saved)).toMatchObject({ user: { email: user.email } });
      await signOut(studio.url, saved);
      expect(await apiStatus(saved)).toBe(401);
      expect(await pageGoesToSignIn(saved)).toBe(true);
      // Auth.js's own session endpoint says signed out too.
      expect((await authSession(saved))?.user).toBeUndefined();
      expect(await apiStatus(other)).toBe(200);
    });

    it("a password change ends the user's other sessions and every API token, and the old password no longer signs in", async () => {
      const user = author(1);
      const elsewhere = await signIn(studio.url, user.email, user.password);
      const here = await signIn(studio.url, user.email, user.password);
      const token = await newToken(here);
      expect(await tokenStatus(token)).toBe(200);
      const wrong = await api<{ error: { code: string; details: { path: string }[] } }>(
        studio.url,
        here,
        "PUT",
        "/api/users/me/password",
        {
          currentPassword: "not the password",
          newPassword: "a fresh and long passphrase",
        },
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.details[0].path).toBe("currentPassword");
      expect(await apiStatus(elsewhere)).toBe(200);

      const weak = await api(studio.url, here, "PUT", "/api/users/me/password", {
        currentPassword: user.password,
        newPassword: "12345678",
      });
      expect(weak.status).toBe(400);

      const changed = await api(studio.url, here, "PUT", "/api/users/me/password", {
        currentPassword: user.password,
        newPassword: "a fresh and long passphrase",
      });
      expect(changed).toEqual({ status: 200, body: { endedSessions: 1, endedTokens: 1 } });
      expect(await apiStatus(elsewhere)).toBe(401);
      expect(await tokenStatus(token)).toBe(401);
      expect(await apiStatus(here)).toBe(200);
      await expect(signIn(studio.url, user.email, user.password)).rejects.toThrow(/sign-in .* failed/);
      expect(await apiStatus(await signIn(studio.url, user.email, "a fresh and long passphrase"))).toBe(200);
    });

    it("disabling a user ends every session of theirs and refuses sign-in until staff enable them", async () => {
      const user = author(2);
      const saved = await signIn(studio.url, user.email, user.password);
      const byAuthor = await api(studio.url, saved, "POST", `/api/users/${user.id}/disable`);
      expect(byAuthor.status).toBe(403);

      expect(await api(studio.url, studio.staff, "POST", `/api/users/${user.id}/disable`)).toEqual({
        status: 200,
        body: { disabled: true },
      });
      expect(await apiStatus(saved)).toBe(401);
      expect(await pageGoesToSignIn(saved)).toBe(true);
      await expect(signIn(studio.url, user.email, user.password)).rejects.toThrow(/sign-in .* failed/);

      expect((await api(studio.url, studio.staff, "POST", `/api/users/${user.id}/enable`)).status).toBe(200);
      expect(await apiStatus(saved)).toBe(401);
      expect(await apiStatus(await signIn(studio.url, user.email, user.password))).toBe(200);
    });

    it("staff signing a user out everywhere ends every session and API token of theirs", async () => {
      const user = author(3);
      const sessions = [
        await signIn(studio.url, user.email, user.password),
        await signIn(studio.url, user.email, user.password),
      ];
      const token = await newToken(sessions[0]);
      expect(await api(studio.url, studio.staff, "DELETE", `/api/users/${user.id}/sessions`)).toEqual({
        status: 200,
        body: { ended: 2, endedTokens: 1 },
      });
      expect(await tokenStatus(token)).toBe(401);
      for (const cookie of sessions) expect(await apiStatus(cookie)).toBe(401);
      expect(await apiStatus(studio.staff)).toBe(200);
      expect((await api(studio.url, studio.staff, "DELETE", `/api/users/not-a-user/sessions`)).status).toBe(400);
      expect((await api(studio.url, studio.staff, "DELETE", `/api/users/${crypto.randomUUID()}/sessions`)).status).toBe(
        404,
      );
    });

    it("a user signing themselves out everywhere ends every session and API token of theirs, this one included; a token cannot do it", async () => {
      const user = author(4);
      const sessions = [
        await signIn(studio.url, user.email, user.password),
        await signIn(studio.url, user.email, user.password),
      ];
      const token = await newToken(sessions[0]);
      // A token (taken from the person, say) cannot end their browser sessions, nor staff's token anyone's.
      expect(await bearer(token, "DELETE", "/api/users/me/sessions")).toMatchObject({
        status: 403,
        body: { error: { code: "forbidden" } },
      });
      const staffToken = await newToken(studio.staff);
      expect((await bearer(staffToken, "DELETE", `/api/users/${user.id}/sessions`)).status).toBe(403);
      for (const cookie of sessions) expect(await apiStatus(cookie)).toBe(200);
      expect(await tokenStatus(token)).toBe(200);

      expect(await api(studio.url, sessions[0], "DELETE", "/api/users/me/sessions")).toEqual({
        status: 200,
        body: { ended: 2, endedTokens: 1 },
      });
      for (const cookie of sessions) expect(await apiStatus(cookie)).toBe(401);
      expect(await tokenStatus(token)).toBe(401);
      expect(await tokenStatus(staffToken)).toBe(200);
    });

    it("a session cookie without a session id (issued before sessions were revocable) is refused", async () => {
      const user = author(5);
      const live = await signIn(studio.url, user.email, user.password);
      const [name, value] = live.split("=", 2);
      const secret = studio.db.env.AUTH_SECRET;
      const token = await decode({ token: value, secret, salt: name });
      expect(token?.sid).toEqual(expect.any(String));
      // The same token re-signed: accepted with its session id, refused without it.
      expect(await apiStatus(`${name}=${await encode({ token: token!, secret, salt: name })}`)).toBe(200);
      const old = `${name}=${await encode({ token: { ...token, sid: undefined }, secret, salt: name })}`;
      expect(await apiStatus(old)).toBe(401);
      expect(await pageGoesToSignIn(old)).toBe(true);
    });
  });
}

securitySessionsSuite("pglite");
if (process.env.DATABASE_URL) securitySessionsSuite("postgres");
else if (process.env.CI === "true") {
  describe("sessions on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error(
        "CI=true but DATABASE_URL is not set: the PostgreSQL half of the sessions security suite cannot run",
      );
    });
  });
}
