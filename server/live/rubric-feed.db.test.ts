import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import type { SessionRef } from "@/db/queries/papers";
import type { RubricOperation } from "@/lib/rubric/operations";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { openTestDatabase, openTestPostgresDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { SseReader } from "@/test/sse-frames";
import { signedInViewer } from "./viewer.testutil";
import { stopRubricFeed, type FeedOperation } from "./rubric-feed";
import { rubricEventStream } from "./sse";

/** The next `count` `op` events of a stream. */
async function readOps(stream: ReadableStream<Uint8Array>, count: number): Promise<FeedOperation[]> {
  const reader = new SseReader(stream);
  try {
    return await reader.take<FeedOperation>("op", count);
  } finally {
    reader.release();
  }
}

/**
 * A stream's reader once the stream follows the rubric, with the operations it sent so far: its
 * first `presence` frame comes after it subscribed (sse.ts), so a change made after that is heard.
 */
async function following(stream: ReadableStream<Uint8Array>): Promise<{ reader: SseReader; ops: FeedOperation[] }> {
  const reader = new SseReader(stream);
  const ops: FeedOperation[] = [];
  for (;;) {
    const frame = await reader.next((f) => f.event === "op" || f.event === "presence");
    if (frame.event === "presence") return { reader, ops };
    ops.push(JSON.parse(frame.data) as FeedOperation);
  }
}

async function seedPaper(handle: DbHandle, paperId: string) {
  return (await seedDemoRubric(handle, paperId)).rows.filter((r) => r.parentKey !== null);
}

describe.each(testDatabaseKinds())("live rubric feed on %s", (kind) => {
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

  it("catches up from the log, then streams each new operation as it is announced", async () => {
    const [a, b] = await seedPaper(handle, "live");
    const update: RubricOperation = { kind: "update", key: a.key, fields: { weight: 5 } };
    await applyRubricOperation(handle, {
      paperId: "live",
      userId: null,
      request: { clientOpId: "before", baseRevision: 1, op: update },
    });

    const abort = new AbortController();
    const { reader, ops } = await following(
      rubricEventStream({ store: handle, paperId: "live", since: 0, signal: abort.signal, viewer }),
    );
    // Once it follows, change the rubric as another client would; the service announces the new revision itself.
    const move: RubricOperation = { kind: "move", moves: [{ key: b.key, parentKey: a.key, position: "a0" }] };
    await applyRubricOperation(handle, {
      paperId: "live",
      userId: null,
      request: { clientOpId: "live-move", baseRevision: 2, op: move },
    });
    ops.push(...(await reader.take<FeedOperation>("op", 3 - ops.length)));
    abort.abort();

    expect(ops.map((o) => [o.revision, o.kind])).toEqual([
      [1, "import"],
      [2, "update"],
      [3, "move"],
    ]);
    expect(ops[0].op).toBeNull(); // an import is reloaded, not replayed
    expect(ops[1]).toMatchObject({ clientOpId: "before", op: update });
    expect(ops[2]).toMatchObject({ clientOpId: "live-move", op: move });
  });

  it("once it follows, has the page read the review status and the comments again: a change just before would go unheard", async () => {
    const abort = new AbortController();
    const reader = new SseReader(
      rubricEventStream({ store: handle, paperId: "live", since: 3, signal: abort.signal, viewer }),
    );
    const events: string[] = [];
    for (let frame = await reader.next(); ; frame = await reader.next()) {
      events.push(frame.event);
      if (frame.event === "presence") break;
    }
    reader.release();
    abort.abort();
    expect(events[0]).toBe("ready");
    expect(events).toContain("review");
    expect(events).toContain("comments");
  });

  it("does not send an editor its own operation back; the same person's other tab and a spoofed session get it", async () => {
    const [a] = await seedPaper(handle, "own-echo");
    const other = await signedInViewer(handle, { staff: true });
    const abort = new AbortController();
    const tab = (sessionId: string) =>
      following(
        rubricEventStream({
          store: handle,
          paperId: "own-echo",
          since: 1,
          signal: abort.signal,
          viewer,
          presence: { sessionId, userId: viewer.userId, name: "Viewer" },
        }),
      );
    const tabA = await tab("tab-a-0001");
    const tabB = await tab("tab-b-0001");
    const weigh = (revision: number, weight: number, userId: string | null, editorSession?: string) =>
      applyRubricOperation(handle, {
        paperId: "own-echo",
        userId,
        request: {
          clientOpId: `own-echo-${revision}`,
          baseRevision: revision - 1,
          op: { kind: "update", key: a.key, fields: { weight } },
          editorSession,
        },
      });
    await weigh(2, 2, viewer.userId, "tab-a-0001"); // tab A's own
    await weigh(3, 3, other.userId, "tab-a-0001"); // someone else naming tab A's session
    await weigh(4, 4, null); // the CLI's
    const seenByA = await tabA.reader.take<FeedOperation>("op", 2);
    const seenByB = await tabB.reader.take<FeedOperation>("op", 3);
    abort.abort();
    expect(seenByA.map((o) => o.revision)).toEqual([3, 4]);
    expect(seenByB.map((o) => o.revision)).toEqual([2, 3, 4]);
  });

  it("resumes after a given revision", async () => {
    const abort = new AbortController();
    const ops = await readOps(
      rubricEventStream({ store: handle, paperId: "live", since: 2, signal: abort.signal, viewer }),
      1,
    );
    abort.abort();
    expect(ops.map((o) => o.revision)).toEqual([3]);
  });
});

describe.runIf(process.env.DATABASE_URL)("live rubric feed across studio processes on PostgreSQL", () => {
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

  it("delivers a change made by another process through LISTEN/NOTIFY", async () => {
    const [a] = await seedPaper(handle, "shared");
    const abort = new AbortController();
    const { reader } = await following(
      rubricEventStream({
        store: handle,
        paperId: "shared",
        since: 1,
        signal: abort.signal,
        viewer,
        databaseUrl: handle.url,
      }),
    );
    const op: RubricOperation = {
      kind: "update",
      key: a.key,
      fields: { requirements: "Changed in the other process" },
    };
    const child = spawnSync(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "test/announce-operation.ts",
        handle.url,
        "shared",
        JSON.stringify(op),
      ],
      { encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    expect(child.stdout.trim()).toBe("2");
    const ops = await reader.take<FeedOperation>("op", 1);
    abort.abort();
    expect(ops).toEqual([expect.objectContaining({ revision: 2, kind: "update", op })]);
  });
});
