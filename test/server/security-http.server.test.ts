/**
 * Security over HTTP (issue 10, items 8, 9 and 15) against the built studio, on PGlite and on
 * PostgreSQL when DATABASE_URL is set (CI sets it; CI=true without it fails, it does not skip):
 *
 * - bodies: every route stops reading at its limit and answers 413 while the client is still
 *   sending, with or without a Content-Length (the auth routes, a JSON route, a multipart upload);
 * - cross-origin changes: a POST from another origin (another port of the same host: same-site,
 *   so cookies ride along) or JSON sent as `text/plain` is refused and changes nothing;
 * - headers: CSP, framing, referrer and sniffing headers on pages and answers; a JSON answer under
 *   1 KiB goes out uncompressed (`server/http/json-answer.ts`), a larger one gzipped;
 * - the public leaderboard's page kept for signed-out visitors (`proxy.ts`): a member never gets the
 *   copy, nor a visitor a member's page, the router never gets HTML for its RSC payload, a copy
 *   carries the headers and no cookie, and a change reaches it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { gradedDemoText } from "@/test/blind-review";
import { DEMO_PAPER_ID, STAFF, api, freePort, signIn, sleep } from "./harness";
import { MiB, streamBody } from "./stream-body";
import { studioSuite } from "./studio-suite";

const errorCode = (body: string): string | undefined => {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
};

function securityHttpSuite(kind: "pglite" | "postgres") {
  describe(`HTTP security on ${kind}`, () => {
    const studio = studioSuite(kind, "security-http");
    /** Another origin on the same host (same-site: the studio's cookies go along with its requests). */
    let elsewhere: string;

    beforeAll(async () => {
      elsewhere = `http://127.0.0.1:${await freePort()}`;
    });

    const members = async () => {
      const answer = await api<{ members: { email: string }[] }>(
        studio.url,
        studio.staff,
        "GET",
        `/api/papers/${DEMO_PAPER_ID}/members`,
      );
      expect(answer.status).toBe(200);
      return answer.body.members.map((m) => m.email);
    };

    const addMember = (
      email: string,
      headers: Record<string, string>,
      body = JSON.stringify({ email, role: "author" }),
    ) =>
      fetch(`${studio.url}/api/papers/${DEMO_PAPER_ID}/members`, {
        method: "POST",
        headers: { cookie: studio.staff, ...headers },
        body,
      });

    // ── Bodies (item 8) ─────────────────────────────────────────────────────

    it("an oversized sign-in post (no Content-Length) is refused with 413 while it is still being sent", async () => {
      const total = 256 * MiB;
      const answer = await streamBody(`${studio.url}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        total,
      });
      expect(answer.status, answer.body).toBe(413);
      expect(errorCode(answer.body)).toBe("payload_too_large");
      expect(answer.sent).toBeLessThan(total);
      // The studio still signs people in.
      expect(await signIn(studio.url, STAFF.email, STAFF.password)).toContain("session-token");
    });

    it("a sign-in post declaring an oversized Content-Length is refused with 413 before its body is read", async () => {
      const total = 256 * MiB;
      const answer = await streamBody(`${studio.url}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        total,
        declare: true,
      });
      expect(answer.status, answer.body).toBe(413);
      expect(answer.sent).toBeLessThan(total);
    });

    it("an oversized JSON body (no Content-Length) is refused with 413 while it is still being sent", async () => {
      const total = 64 * MiB;
      const answer = await streamBody(`${studio.url}/api/papers`, {
        method: "POST",
        headers: { cookie: studio.staff, "content-type": "application/json" },
        total,
        fill: " ",
      });
      expect(answer.status, answer.body).toBe(413);
      expect(errorCode(answer.body)).toBe("payload_too_large");
      expect(answer.sent).toBeLessThan(total);
    });

    it("an oversized multipart upload without Content-Length is refused with 413 while it is still being sent", async () => {
      const revision = async () =>
        (await api<{ revision: number }>(studio.url, studio.staff, "GET", `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`))
          .body.revision;
      const before = await revision();
      const total = 128 * MiB;
      const answer = await streamBody(`${studio.url}/api/papers/${DEMO_PAPER_ID}/rubric`, {
        method: "PUT",
        headers: { cookie: studio.staff, "content-type": "multipart/form-data; boundary=----security-http" },
        total,
      });
      expect(answer.status, answer.body).toBe(413);
      expect(errorCode(answer.body)).toBe("payload_too_large");
      expect(answer.sent).toBeLessThan(total);
      expect(await revision()).toBe(before);
    });

    // ── Cross-origin changes (item 9) ───────────────────────────────────────

    it("a member cannot be added by a page on another port of the same host (Origin), nor by a same-site page (Sec-Fetch-Site)", async () => {
      const before = await members();
      const fromElsewhere = await addMember("csrf-origin@attacker.test", {
        origin: elsewhere,
        "content-type": "application/json",
      });
      expect(fromElsewhere.status).toBe(403);
      expect(((await fromElsewhere.json()) as { error: { code: string; message: string } }).error).toMatchObject({
        code: "cross_origin",
      });
      const sameSite = await addMember("csrf-site@attacker.test", {
        "sec-fetch-site": "same-site",
        "content-type": "application/json",
      });
      expect(sameSite.status).toBe(403);
      const nullOrigin = await addMember("csrf-null@attacker.test", {
        origin: "null",
        "content-type": "application/json",
      });
      expect(nullOrigin.status).toBe(403);
      expect(await members()).toEqual(before);
    });

    it("a member cannot be added with JSON sent as text/plain or without a content type (a form or a no-cors fetch)", async () => {
      const before = await members();
      const plain = await addMember("csrf-plain@attacker.test", { "content-type": "text/plain;charset=UTF-8" });
      expect(plain.status).toBe(415);
      expect(((await plain.json()) as { error: { code: string } }).error.code).toBe("unsupported_media_type");
      const untyped = await fetch(`${studio.url}/api/papers/${DEMO_PAPER_ID}/members`, {
        method: "POST",
        headers: { cookie: studio.staff },
        body: new Blob([JSON.stringify({ email: "csrf-blob@attacker.test", role: "author" })]),
      });
      expect(untyped.status).toBe(415);
      expect(await members()).toEqual(before);
    });

    it("a cross-origin sign-in post is refused (a login CSRF)", async () => {
      const res = await fetch(`${studio.url}/api/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: elsewhere, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: STAFF.email, password: STAFF.password, csrfToken: "x" }),
      });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false);
    });

    it("the studio's own pages still change data (same Origin, or Sec-Fetch-Site: same-origin)", async () => {
      const byOrigin = await addMember("same-origin@test.rubric.studio", {
        origin: studio.url,
        "content-type": "application/json",
      });
      expect(byOrigin.status, await byOrigin.clone().text()).toBe(201);
      const byFetchSite = await addMember("same-fetch-site@test.rubric.studio", {
        "sec-fetch-site": "same-origin",
        "content-type": "application/json; charset=utf-8",
      });
      expect(byFetchSite.status, await byFetchSite.clone().text()).toBe(201);
      expect(await members()).toEqual(
        expect.arrayContaining(["same-origin@test.rubric.studio", "same-fetch-site@test.rubric.studio"]),
      );
    });

    // ── Headers (item 15) ───────────────────────────────────────────────────

    it("pages and API answers carry the CSP, framing, referrer and no-sniff headers", async () => {
      for (const path of ["/signin", "/api/leaderboard"]) {
        const res = await fetch(`${studio.url}${path}`, { headers: { cookie: studio.staff } });
        await res.arrayBuffer();
        expect(res.status, path).toBe(200);
        const csp = res.headers.get("content-security-policy") ?? "";
        expect(csp, path).toContain("frame-ancestors 'none'");
        expect(csp, path).toContain("object-src 'none'");
        expect(res.headers.get("x-frame-options"), path).toBe("DENY");
        expect(res.headers.get("referrer-policy"), path).toBe("same-origin");
        expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      }
    });

    it("a JSON answer under 1 KiB goes out uncompressed, a larger one gzipped", async () => {
      const answer = async (path: string) => {
        const res = await fetch(`${studio.url}${path}`, {
          headers: { cookie: studio.staff, "accept-encoding": "gzip, deflate, br" },
        });
        return { res, text: await res.text() };
      };
      // An answer of the route wrapper, one of its errors, and a route of its own (the probe's).
      for (const path of [
        `/api/papers/${DEMO_PAPER_ID}/rubric/review`,
        "/api/papers/no-such-paper/members",
        "/api/health",
      ]) {
        const { res, text } = await answer(path);
        expect(Buffer.byteLength(text), path).toBeLessThan(1024);
        expect(res.headers.get("content-encoding"), path).toBeNull();
        expect(res.headers.get("cache-control"), path).toContain("no-transform");
        expect(res.headers.get("content-type"), path).toBe("application/json");
        expect(JSON.parse(text), path).toBeTypeOf("object");
      }
      // The probe's own header is kept beside it.
      expect((await answer("/api/health")).res.headers.get("cache-control")).toBe("no-store, no-transform");
      const large = await answer(`/api/papers/${DEMO_PAPER_ID}/rubric/nodes`);
      expect(Buffer.byteLength(large.text)).toBeGreaterThan(1024);
      expect(large.res.headers.get("content-encoding")).toBe("gzip");
    });

    // ── The public leaderboard's page, kept for signed-out visitors ─────────

    /** A document request as a browser makes it, signed in with `cookie` or signed out. */
    const openPage = async (path: string, cookie?: string) => {
      const res = await fetch(`${studio.url}${path}`, {
        headers: { accept: "text/html,application/xhtml+xml", ...(cookie ? { cookie } : {}) },
      });
      return { res, html: await res.text() };
    };
    const SIGNED_IN = 'data-testid="current-user"';

    it("a signed-out visitor's leaderboard comes from a kept copy; a member's never does, before or after", async () => {
      const member = await openPage("/leaderboard", studio.staff);
      expect(member.res.headers.get("x-page-cache")).toBeNull();
      expect(member.html).toContain(SIGNED_IN);

      for (let i = 0; i < 2; i++) {
        const visitor = await openPage("/leaderboard");
        expect(visitor.res.status).toBe(200);
        expect(["hit", "miss"]).toContain(visitor.res.headers.get("x-page-cache"));
        expect(visitor.html).not.toContain(SIGNED_IN);
        expect(visitor.html).toContain('data-testid="leaderboard"');
        // The copy is sent with the studio's headers, and with no cookie of anyone's.
        expect(visitor.res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
        expect(visitor.res.headers.get("x-frame-options")).toBe("DENY");
        expect(visitor.res.headers.get("content-type")).toContain("text/html");
        expect(visitor.res.headers.get("set-cookie")).toBeNull();
      }

      const memberAgain = await openPage("/leaderboard", studio.staff);
      expect(memberAgain.res.headers.get("x-page-cache")).toBeNull();
      expect(memberAgain.html).toContain(SIGNED_IN);
    });

    it("a client-side navigation to the leaderboard gets its RSC payload, never the kept HTML", async () => {
      await openPage("/leaderboard");
      const res = await fetch(`${studio.url}/leaderboard?_rsc=abc`, { headers: { rsc: "1", accept: "*/*" } });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/x-component");
      expect(res.headers.get("x-page-cache")).toBeNull();
    });

    it("a new agent's grading reaches the signed-out page", async () => {
      const agent = `Page copy agent (${kind})`;
      const { splits } = (await (await fetch(`${studio.url}/api/leaderboard`)).json()) as {
        splits: { name: string }[];
      };
      const split = splits.some((s) => s.name === "studio") ? "studio" : "all";
      const path = `/leaderboard?split=${split}`;
      expect((await openPage(path)).html).not.toContain(agent);
      const imported = await api(studio.url, studio.staff, "POST", `/api/papers/${DEMO_PAPER_ID}/gradings`, {
        file: gradedDemoText(3),
        agent,
        run: 1,
      });
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);
      // Kept at most LEADERBOARD_MAX_STALE_MS, over a board as old: wait for it (the test's timeout bounds it).
      while (!(await openPage(path)).html.includes(agent)) await sleep(50);
    });
  });
}

securityHttpSuite("pglite");
if (process.env.DATABASE_URL) securityHttpSuite("postgres");
else if (process.env.CI === "true") {
  describe("HTTP security on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set: the PostgreSQL half of the HTTP security suite cannot run");
    });
  });
}
