import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import type { SessionRef } from "@/db/queries/papers";
import { removePaperMember } from "@/db/queries/papers";
import { removeMember } from "@/server/papers/remove-member";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { endSession, signOutEverywhere } from "@/server/auth/sessions";
import { setDisabled } from "@/server/users/set-disabled";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { SseReader, type SseFrame } from "@/test/sse-frames";
import { stopRubricFeed } from "./rubric-feed";
import { rubricEventStream } from "./sse";
import { signedInViewer } from "./viewer.testutil";

/** How long a stream may take to end after an announced change (the spec: within a second; generous for a loaded machine). */
const ANNOUNCED_MS = 1_500;
/** …and after a change nobody announced: the stream's own re-check, every second, finds it. */
const UNANNOUNCED_MS = 2_500;

describe.each(testDatabaseKinds())("live streams end when their viewer loses access, on %s", (kind) => {
  let handle: DbHandle;
  let staff: SessionRef;
  const aborts: AbortController[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staff = await signedInViewer(handle, { staff: true });
  });
  afterAll(async () => {
    for (const a of aborts) a.abort();
    await stopRubricFeed();
    await handle?.close();
  });

  /** A paper with an author following its rubric: the author's stream, opened and past its first events. */
  async function authorFollowing(paperId: string) {
    const { rows } = await seedDemoRubric(handle, paperId);
    const author = await signedInViewer(handle, { paperId, role: "author", addedBy: staff.userId });
    const abort = new AbortController();
    aborts.push(abort);
    const reader = new SseReader(
      rubricEventStream({ store: handle, paperId, since: 1, signal: abort.signal, viewer: author }),
    );
    await reader.next((f) => f.event === "presence");
    const leaf = rows.find((r) => r.parentKey !== null)!;
    let revision = 1;
    /** Staff change the rubric: what the author must not receive once out. */
    const edit = () =>
      applyRubricOperation(handle, {
        paperId,
        userId: staff.userId,
        request: {
          clientOpId: crypto.randomUUID(),
          baseRevision: revision,
          op: { kind: "update", key: leaf.key, fields: { weight: ++revision } },
        },
      });
    return { author, reader, edit };
  }

  const events = (frames: SseFrame[]) => frames.map((f) => f.event);

  it("a stream still allowed keeps receiving operations", async () => {
    const { reader, edit } = await authorFollowing("still-allowed");
    await edit();
    expect((await reader.next((f) => f.event === "op")).id).toBe("2");
  });

  it("a removed member's open stream ends with access-ended and sends no operation made after the removal", async () => {
    const { author, reader, edit } = await authorFollowing("removed");
    await removeMember(handle, "removed", author.userId);
    await edit();
    expect(events(await reader.untilEnd(ANNOUNCED_MS))).toEqual(["access-ended"]);
  });

  it("sign-out ends the session's open stream", async () => {
    const { author, reader, edit } = await authorFollowing("signed-out");
    await endSession(handle, author.sessionId);
    await edit();
    expect(events(await reader.untilEnd(ANNOUNCED_MS))).toEqual(["access-ended"]);
  });

  it("disabling a user ends their open streams", async () => {
    const { author, reader, edit } = await authorFollowing("disabled");
    await setDisabled(handle, { userId: author.userId, disabled: true, by: staff.userId });
    await edit();
    expect(events(await reader.untilEnd(ANNOUNCED_MS))).toEqual(["access-ended"]);
  });

  it("signing a user out everywhere ends their open streams", async () => {
    const { author, reader, edit } = await authorFollowing("everywhere");
    await signOutEverywhere(handle, author.userId);
    await edit();
    expect(events(await reader.untilEnd(ANNOUNCED_MS))).toEqual(["access-ended"]);
  });

  it("a removal nobody announced still ends the stream (its own periodic re-check)", async () => {
    const { author, reader } = await authorFollowing("unannounced");
    await removePaperMember(handle.db, "unannounced", author.userId);
    expect(events(await reader.untilEnd(UNANNOUNCED_MS))).toEqual(["access-ended"]);
  });
});
