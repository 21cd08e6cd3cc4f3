/**
 * Live-view figure (issue 23), against the built studio on PostgreSQL:
 *
 * - `live_resync_after_db_restart_ms`: an editor's live stream is open on the demo rubric; the
 *   test database goes down as in a restart (connections refused, every open one ended), and comes
 *   back. At once a change is made by another process (applied and announced on the database, as
 *   the CLI or a second instance makes them): the time from the database's return until the open
 *   stream has that change, whether the studio's re-established LISTEN hears it or its re-sync
 *   after reconnecting finds it. p95 over 10 restarts. Goal < 5,000 ms.
 */
import { openDatabase } from "@/db/client";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { takeTestDatabaseDown } from "@/test/databases";
import { pollUntil } from "@/test/poll";
import {
  DEMO_PAPER_ID,
  LiveFeed,
  STAFF,
  api,
  assertBuilt,
  prepareDatabase,
  signIn,
  startStudio,
  type FeedEvent,
} from "@/test/server/harness";
import { percentile, report, withTimeout } from "./support/figures";

const RESTARTS = 10;

export async function liveResyncFigures(): Promise<void> {
  assertBuilt();
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/postgres";
  const db = await prepareDatabase("postgres", 0, "bench-live-resync");
  const studio = await startStudio(db.env);
  const events: FeedEvent[] = [];
  let feed: LiveFeed | null = null;
  try {
    const cookie = await signIn(studio.url, STAFF.email, STAFF.password);
    const start = await api<{ revision: number; nodes: NodeRow[] }>(
      studio.url,
      cookie,
      "GET",
      `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`,
    );
    const leaf = start.body.nodes.find((n) => n.parentKey !== null)!;
    feed = new LiveFeed({
      baseUrl: studio.url,
      cookie,
      paperId: DEMO_PAPER_ID,
      onOp: (e) => events.push(e),
      onProblem: () => undefined,
    });
    await feed.connect(start.body.revision);

    const times: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      const down = await takeTestDatabaseDown(db.env.DATABASE_URL);
      // Down until the studio has noticed: readiness answers 503.
      await pollUntil(
        "the studio to report the database down",
        () => fetch(`${studio.url}/api/health`).then((r) => r.status),
        (status) => status === 503,
      );
      await down.bringBack();
      const back = performance.now();
      const op: RubricOperation = { kind: "update", key: leaf.key, fields: { weight: 2 + (i % 5) } };
      const handle = await openDatabase({ databaseUrl: db.env.DATABASE_URL });
      const applied = await applyRubricOperation(handle, {
        paperId: DEMO_PAPER_ID,
        userId: null,
        request: { clientOpId: `bench-resync-${i}-${Date.now()}`, baseRevision: 0, op },
      });
      await handle.close();
      await withTimeout(
        `revision ${applied.revision} on the open stream`,
        60_000,
        pollUntil(
          `revision ${applied.revision} on the open stream`,
          () => events.some((e) => e.revision === applied.revision),
          (found) => found,
          10,
        ),
      );
      times.push(performance.now() - back);
      console.log(`# restart ${i + 1}: the stream had the change ${(performance.now() - back).toFixed(0)} ms after`);
    }
    report("live_resync_after_db_restart_ms", percentile(times, 95), "ms", 0);
  } finally {
    await feed?.close();
    await studio.stop();
    await db.drop();
  }
}
