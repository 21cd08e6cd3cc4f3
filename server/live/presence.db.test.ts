import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import type { SessionRef } from "@/db/queries/papers";
import { openTestDatabase, openTestPostgresDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { SseReader } from "@/test/sse-frames";
import { signedInViewer } from "./viewer.testutil";
import { listPresence, updatePresence, type PresencePerson } from "./presence";
import { announceLive, stopRubricFeed } from "./rubric-feed";
import { rubricEventStream } from "./sse";

async function seedPaper(handle: DbHandle, paperId: string): Promise<string[]> {
  return (await seedDemoRubric(handle, paperId)).rows.map((r) => r.key);
}

describe.each(testDatabaseKinds())("presence on %s", (kind) => {
  let handle: DbHandle;
  let viewer: SessionRef;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    viewer = await signedInViewer(handle, { staff: true });
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  function open(paperId: string, sessionId: string, name: string) {
    const abort = new AbortController();
    const stream = rubricEventStream({
      store: handle,
      paperId,
      since: 1,
      signal: abort.signal,
      viewer,
      presence: { sessionId, userId: `00000000-0000-4000-8000-${sessionId.slice(-12)}`, name },
    });
    return { reader: new SseReader(stream), abort };
  }
  const presenceEvent = (reader: SseReader, match: (people: PresencePerson[]) => boolean) =>
    reader
      .next((f) => f.event === "presence" && match(JSON.parse(f.data) as PresencePerson[]))
      .then((f) => JSON.parse(f.data) as PresencePerson[]);

  it("tells everyone who joins, what they select and edit, and when they leave", async () => {
    const [, nodeA, nodeB] = await seedPaper(handle, "presence");
    const ada = open("presence", "session-ada-000000000001", "Ada");
    const [first] = await ada.reader.take<PresencePerson[]>("presence", 1);
    expect(first.map((p) => p.name)).toEqual(["Ada"]);

    const bo = open("presence", "session-bo-0000000000002", "Bo");
    const both = await presenceEvent(ada.reader, (people) => people.length === 2);
    expect(both.map((p) => p.name).sort()).toEqual(["Ada", "Bo"]);

    const ok = await updatePresence(handle, "presence", {
      sessionId: "session-bo-0000000000002",
      userId: "00000000-0000-4000-8000-000000000002",
      selectedKey: nodeA,
      editingKey: nodeB,
    });
    expect(ok).toBe(true);
    const moved = await presenceEvent(ada.reader, (people) => people.some((p) => p.selectedKey === nodeA));
    expect(moved.find((p) => p.name === "Bo")).toMatchObject({ selectedKey: nodeA, editingKey: nodeB });

    // Only the session's own user may move its marker.
    expect(
      await updatePresence(handle, "presence", {
        sessionId: "session-bo-0000000000002",
        userId: "someone-else",
        selectedKey: null,
        editingKey: null,
      }),
    ).toBe(false);

    bo.abort.abort();
    const after = await presenceEvent(ada.reader, (people) => people.length === 1);
    expect(after.map((p) => p.name)).toEqual(["Ada"]);
    ada.abort.abort();
    // The stream ends once it has left (close() removes its session before it closes the stream).
    await ada.reader.untilEnd();
    expect(listPresence("presence")).toEqual([]);
  });

  it("keeps a reconnected session when its old stream closes late", async () => {
    await seedPaper(handle, "reconnect");
    const first = open("reconnect", "session-cy-0000000000003", "Cy");
    await first.reader.take("presence", 1);
    const second = open("reconnect", "session-cy-0000000000003", "Cy");
    await second.reader.take("presence", 1);
    first.abort.abort();
    await first.reader.untilEnd();
    expect(listPresence("reconnect").map((p) => p.name)).toEqual(["Cy"]);
    second.abort.abort();
  });

  it("nudges followers when the review status or the comments change", async () => {
    await seedPaper(handle, "nudges");
    const watcher = open("nudges", "session-di-0000000000004", "Di");
    await announceLive(handle, "nudges", { type: "review" });
    await announceLive(handle, "nudges", { type: "comments" });
    expect((await watcher.reader.next((f) => f.event === "review")).event).toBe("review");
    expect((await watcher.reader.next((f) => f.event === "comments")).event).toBe("comments");
    watcher.abort.abort();
  });
});

describe.skipIf(!process.env.DATABASE_URL)("presence across processes on PostgreSQL", () => {
  let handle: DbHandle & { url: string };
  let viewer: SessionRef;
  beforeAll(async () => {
    handle = await openTestPostgresDatabase();
    viewer = await signedInViewer(handle, { staff: true });
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  it("shows a session held by another process, and drops it when that process says it left", async () => {
    await seedPaper(handle, "remote");
    const abort = new AbortController();
    const reader = new SseReader(
      rubricEventStream({
        store: handle,
        paperId: "remote",
        since: 1,
        signal: abort.signal,
        viewer,
        databaseUrl: handle.url,
      }),
    );
    await reader.take("presence", 1);
    // What another studio process sends when one of its editors joins, then leaves.
    const entry = {
      sessionId: "remote-session-1",
      userId: "00000000-0000-4000-8000-00000000000e",
      name: "Eve",
      selectedKey: null,
      editingKey: null,
      owner: "another-process",
      connectionId: "conn-1",
      seenAt: Date.now(),
    };
    const notify = (change: object) =>
      handle.db.execute(
        sql`SELECT pg_notify('rubric_revisions', ${JSON.stringify({ paperId: "remote", signal: { type: "presence", change }, origin: "another-process" })})`,
      );
    await notify({ kind: "set", entry });
    const joined = await reader.next((f) => f.event === "presence" && f.data.includes("Eve"));
    expect((JSON.parse(joined.data) as PresencePerson[]).map((p) => p.name)).toEqual(["Eve"]);
    await notify({ kind: "leave", sessionId: "remote-session-1", connectionId: "conn-1" });
    const left = await reader.next((f) => f.event === "presence" && !f.data.includes("Eve"));
    expect(JSON.parse(left.data)).toEqual([]);
    abort.abort();
  });
});
