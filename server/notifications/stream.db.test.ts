import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { insertNotifications } from "@/db/queries/notifications";
import type { SessionRef } from "@/db/queries/papers";
import type { UnreadState } from "@/lib/notifications/schemas";
import { startCommentThread } from "@/server/comments/start-comment-thread";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { signedInViewer } from "@/server/live/viewer.testutil";
import { removeMember } from "@/server/papers/remove-member";
import { endSession } from "@/server/auth/sessions";
import { openTestDatabase, openTestPostgresDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { SseReader } from "@/test/sse-frames";
import { markRead } from "./inbox";
import { notificationEventStream } from "./stream";

describe.each(testDatabaseKinds())("the live inbox stream on %s", (kind) => {
  let handle: DbHandle;
  let author: SessionRef & { email: string };
  let nodeKey: string;
  const aborts: AbortController[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const staff = await signedInViewer(handle, { staff: true });
    const { rows } = await seedDemoRubric(handle, "inbox");
    nodeKey = rows[1].key;
    author = await signedInViewer(handle, { paperId: "inbox", role: "author", addedBy: staff.userId });
  });
  afterAll(async () => {
    for (const a of aborts) a.abort();
    await stopRubricFeed();
    await handle?.close();
  });

  /**
   * A new grader of the paper with their inbox open, past its first `unread`. `announced`: the
   * stream re-reads only when told, so whatever reaches it was announced; else it also re-reads on
   * its own every second, as in the studio.
   */
  async function graderWithInboxOpen({ announced = true } = {}) {
    const grader = await signedInViewer(handle, { paperId: "inbox", role: "grader", addedBy: author.userId });
    const abort = new AbortController();
    aborts.push(abort);
    const reader = new SseReader(
      notificationEventStream({
        store: handle,
        viewer: grader,
        signal: abort.signal,
        ...(announced ? { recheckMs: null } : {}),
      }),
    );
    const unread = async () => JSON.parse((await reader.next((f) => f.event === "unread")).data) as UnreadState;
    expect(await unread()).toEqual({ unread: 0, latest: null });
    const mention = () =>
      startCommentThread(handle, {
        paperId: "inbox",
        nodeKey,
        body: `Have a look, @${grader.email}`,
        userId: author.userId,
      });
    return { grader, reader, unread, mention };
  }

  it("counts a mention as it happens and a read as it is marked", async () => {
    const { grader, unread, mention } = await graderWithInboxOpen();
    await mention();
    const after = await unread();
    expect(after.unread).toBe(1);
    expect(after.latest).not.toBeNull();
    await mention();
    expect((await unread()).unread).toBe(2);
    await markRead(handle, grader.userId, { ids: [after.latest!] });
    expect(await unread()).toMatchObject({ unread: 1 });
  });

  it("finds a notification nobody announced at its own check", async () => {
    const { grader, unread } = await graderWithInboxOpen({ announced: false });
    await insertNotifications(handle.db, [
      { recipientId: grader.userId, kind: "mention", actorId: author.userId, paperId: "inbox", nodeKey, text: "quiet" },
    ]);
    expect((await unread()).unread).toBe(1);
  });

  it("drops the count of a paper the user is removed from, and ends when the session does", async () => {
    const { grader, reader, unread, mention } = await graderWithInboxOpen();
    await mention();
    expect((await unread()).unread).toBe(1);
    await removeMember(handle, "inbox", grader.userId);
    expect(await unread()).toEqual({ unread: 0, latest: null });
    await endSession(handle, grader.sessionId);
    expect((await reader.untilEnd()).map((f) => f.event)).toEqual(["access-ended"]);
  });
});

describe.runIf(process.env.DATABASE_URL)("the live inbox across studio processes on PostgreSQL", () => {
  let handle: DbHandle & { url: string };
  beforeAll(async () => {
    handle = await openTestPostgresDatabase();
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  it("hears of a mention made by another process at once (LISTEN/NOTIFY)", async () => {
    const staff = await signedInViewer(handle, { staff: true });
    const { rows } = await seedDemoRubric(handle, "shared-inbox");
    const grader = await signedInViewer(handle, { paperId: "shared-inbox", role: "grader", addedBy: staff.userId });
    const abort = new AbortController();
    const reader = new SseReader(
      notificationEventStream({
        store: handle,
        viewer: grader,
        signal: abort.signal,
        databaseUrl: handle.url,
        recheckMs: null,
      }),
    );
    await reader.next((f) => f.event === "unread");
    const child = spawnSync(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "test/mention-in-other-process.ts",
        handle.url,
        "shared-inbox",
        rows[1].key,
        staff.userId,
        grader.email,
      ],
      { encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    const frame = await reader.next((f) => f.event === "unread");
    abort.abort();
    expect(JSON.parse(frame.data)).toMatchObject({ unread: 1 });
  });
});
