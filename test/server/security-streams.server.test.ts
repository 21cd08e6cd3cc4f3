/**
 * Open live streams end when their viewer loses access (issue 10, item 4), against the built
 * studio over HTTP: a member removed from the paper, a user disabled, a session signed out. The
 * stream sends `access-ended` and closes within a second (waited for generously, never slept
 * on), and nothing made after the loss reaches it. On PGlite and PostgreSQL (one instance), and on
 * two PostgreSQL instances: the change made through A ends the stream held by B. CI=true without
 * DATABASE_URL fails the PostgreSQL parts, it does not skip them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { SseReader } from "@/test/sse-frames";
import {
  DEMO_PAPER_ID,
  STAFF,
  api,
  postOperation,
  prepareDatabase,
  signIn,
  startStudio,
  waitFor,
  type PreparedDatabase,
  type Studio,
  type TestUser,
} from "./harness";
import { signOut } from "./sign-out";
import { studioSuite } from "./studio-suite";

interface OpenStream {
  /** Each event as it arrived (performance.now()). */
  frames: { event: string; at: number }[];
  /** When the server ended the stream. */
  ended: Promise<number>;
  abort: AbortController;
}

const eventsPath = `/api/papers/${DEMO_PAPER_ID}/rubric/events`;

/**
 * Opens the rubric's live stream as `cookie` after the rubric's current revision, and records
 * every event as it arrives; resolves once the first events (ready, the presence list) are in.
 */
async function follow(studio: Pick<Studio, "url">, cookie: string, streams: OpenStream[]): Promise<OpenStream> {
  const { revision } = (
    await api<{ revision: number }>(studio.url, cookie, "GET", `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`)
  ).body;
  const abort = new AbortController();
  const res = await fetch(`${studio.url}${eventsPath}?since=${revision}`, {
    headers: { cookie, accept: "text/event-stream" },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`the live stream answered ${res.status}: ${await res.text()}`);
  const reader = new SseReader(res.body);
  const frames: OpenStream["frames"] = [];
  const ended = (async () => {
    for (;;) {
      try {
        const frame = await reader.next(() => true, 1_000);
        frames.push({ event: frame.event, at: performance.now() });
      } catch (err) {
        const message = (err as Error).message;
        if (message === "the stream ended" || abort.signal.aborted) return performance.now();
        if (message !== "no matching event in time") throw err;
      }
    }
  })();
  const stream = { frames, ended, abort };
  streams.push(stream);
  await waitFor("the stream's presence list", () => frames.some((f) => f.event === "presence"));
  return stream;
}

/**
 * The events that arrived after `since` (just before the change was asked for), once the stream
 * has ended. How soon it ends is a timing goal, not a test: it is logged, and the test's own
 * timeout is the only bound.
 */
async function eventsAfter(stream: OpenStream, since: number): Promise<string[]> {
  const end = await stream.ended;
  console.log(`the stream ended ${(end - since).toFixed(0)} ms after the change was asked for`);
  return stream.frames.filter((f) => f.at >= since).map((f) => f.event);
}

/** Staff change a weight of the demo rubric: what a viewer who lost access must not receive. */
async function staffEdit(studio: Pick<Studio, "url">, staffCookie: string): Promise<void> {
  const rubric = await api<{ revision: number; nodes: NodeRow[] }>(
    studio.url,
    staffCookie,
    "GET",
    `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`,
  );
  const leaf = rubric.body.nodes.find((n) => n.parentKey !== null)!;
  const answer = await postOperation(studio.url, staffCookie, DEMO_PAPER_ID, {
    clientOpId: crypto.randomUUID(),
    baseRevision: rubric.body.revision,
    op: { kind: "update", key: leaf.key, fields: { weight: rubric.body.revision + 1 } },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

async function memberIds(studio: Pick<Studio, "url">, staffCookie: string): Promise<Map<string, string>> {
  const members = await api<{ members: { userId: string; email: string }[] }>(
    studio.url,
    staffCookie,
    "GET",
    `/api/papers/${DEMO_PAPER_ID}/members`,
  );
  return new Map(members.body.members.map((m) => [m.email, m.userId]));
}

function streamsSuite(kind: "pglite" | "postgres") {
  describe(`live streams on ${kind}`, () => {
    const studio = studioSuite(kind, "streams", { extraUsers: 8 });
    let authors: TestUser[];
    let ids: Map<string, string>;
    const streams: OpenStream[] = [];

    beforeAll(async () => {
      authors = studio.db.users.filter((u) => !u.staff);
      ids = await memberIds(studio, studio.staff);
    });

    // Registered after studioSuite, so it runs first (afterAll hooks run in reverse order): the
    // streams are aborted while the studio is still up.
    afterAll(async () => {
      for (const s of streams) s.abort.abort();
    });

    it("a member's open stream keeps receiving changes while they are a member", async () => {
      const author = authors[0];
      const stream = await follow(studio, await signIn(studio.url, author.email, author.password), streams);
      await staffEdit(studio, studio.staff);
      await waitFor("the change on the member's stream", () => stream.frames.some((f) => f.event === "op"));
      stream.abort.abort();
    });

    it("a removed member's open stream ends within a second, sending nothing but access-ended", async () => {
      const author = authors[1];
      const cookie = await signIn(studio.url, author.email, author.password);
      const stream = await follow(studio, cookie, streams);
      const asked = performance.now();
      const removed = await api(
        studio.url,
        studio.staff,
        "DELETE",
        `/api/papers/${DEMO_PAPER_ID}/members/${ids.get(author.email)}`,
      );
      expect(removed.status).toBe(200);
      await staffEdit(studio, studio.staff);
      expect(await eventsAfter(stream, asked)).toEqual(["access-ended"]);
      // Reconnecting (as EventSource does) is refused.
      expect((await fetch(`${studio.url}${eventsPath}`, { headers: { cookie } })).status).toBe(403);
    });

    it("sign-out ends the session's open stream within a second", async () => {
      const author = authors[2];
      const cookie = await signIn(studio.url, author.email, author.password);
      const stream = await follow(studio, cookie, streams);
      const asked = performance.now();
      await signOut(studio.url, cookie);
      await staffEdit(studio, studio.staff);
      expect(await eventsAfter(stream, asked)).toEqual(["access-ended"]);
      expect((await fetch(`${studio.url}${eventsPath}`, { headers: { cookie } })).status).toBe(401);
    });

    it("disabling a user ends their open stream within a second", async () => {
      const author = authors[3];
      const stream = await follow(studio, await signIn(studio.url, author.email, author.password), streams);
      const asked = performance.now();
      expect((await api(studio.url, studio.staff, "POST", `/api/users/${ids.get(author.email)}/disable`)).status).toBe(
        200,
      );
      await staffEdit(studio, studio.staff);
      expect(await eventsAfter(stream, asked)).toEqual(["access-ended"]);
    });
  });
}

function twoInstancesSuite() {
  describe("live streams across two PostgreSQL instances", () => {
    let db: PreparedDatabase | undefined;
    let a: Studio;
    let b: Studio;
    let staffOnA: string;
    let authors: TestUser[];
    let ids: Map<string, string>;
    const streams: OpenStream[] = [];

    beforeAll(async () => {
      db = await prepareDatabase("postgres", 4, "streams-two");
      authors = db.users.filter((u) => !u.staff);
      [a, b] = await Promise.all([startStudio(db.env), startStudio(db.env)]);
      staffOnA = await signIn(a.url, STAFF.email, STAFF.password);
      ids = await memberIds(a, staffOnA);
    });

    afterAll(async () => {
      for (const s of streams) s.abort.abort();
      await Promise.all([a?.stop(), b?.stop()]);
      await db?.drop();
    });

    it("a member removed through instance A: their open stream on instance B ends within a second", async () => {
      const author = authors[0];
      const stream = await follow(b, await signIn(b.url, author.email, author.password), streams);
      const asked = performance.now();
      expect(
        (await api(a.url, staffOnA, "DELETE", `/api/papers/${DEMO_PAPER_ID}/members/${ids.get(author.email)}`)).status,
      ).toBe(200);
      await staffEdit(a, staffOnA);
      expect(await eventsAfter(stream, asked)).toEqual(["access-ended"]);
    });

    it("a sign-out through instance A ends that session's open stream on instance B within a second", async () => {
      const author = authors[1];
      const cookie = await signIn(b.url, author.email, author.password);
      const stream = await follow(b, cookie, streams);
      const asked = performance.now();
      await signOut(a.url, cookie);
      await staffEdit(a, staffOnA);
      expect(await eventsAfter(stream, asked)).toEqual(["access-ended"]);
    });
  });
}

streamsSuite("pglite");
if (process.env.DATABASE_URL) {
  streamsSuite("postgres");
  twoInstancesSuite();
} else if (process.env.CI === "true") {
  describe("live streams on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error(
        "CI=true but DATABASE_URL is not set: the PostgreSQL half of the streams security suite cannot run",
      );
    });
  });
}
