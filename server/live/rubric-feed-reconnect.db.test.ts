/**
 * The live feed's LISTEN connection after the database went away (issue 23): it comes back by
 * itself, every follower is told to re-read (what other processes announced meanwhile is lost),
 * later announcements from other processes arrive again, and no idle connection's error escapes
 * as an uncaught exception (vitest fails the run on one). PostgreSQL only: PGlite has no LISTEN.
 */
import pg from "pg";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { openTestPostgresDatabase, takeTestDatabaseDown } from "@/test/databases";
import { pollUntil } from "@/test/poll";
import { followRubric, liveFeedIsUp, stopRubricFeed, type LiveSignal } from "./rubric-feed";

describe.runIf(process.env.DATABASE_URL)("the live feed across a database restart (PostgreSQL)", () => {
  let handle: DbHandle & { url: string };
  beforeAll(async () => {
    handle = await openTestPostgresDatabase();
  });
  afterAll(async () => {
    await stopRubricFeed();
    await handle?.close();
  });

  /** An announcement as another studio process makes it (its own instance id, its own connection). */
  async function announceFromAnotherProcess(paperId: string, signal: LiveSignal): Promise<void> {
    const client = new pg.Client({ connectionString: handle.url });
    await client.connect();
    try {
      await client.query(`SELECT pg_notify('rubric_revisions', $1)`, [
        JSON.stringify({ paperId, signal, origin: "another-process" }),
      ]);
    } finally {
      await client.end();
    }
  }

  it("reconnects, tells every follower to re-read, and hears other processes again", async () => {
    const onPaper: LiveSignal[] = [];
    const onOther: LiveSignal[] = [];
    const stops = await Promise.all([
      followRubric("paper-a", (s) => onPaper.push(s), { databaseUrl: handle.url }),
      followRubric("paper-b", (s) => onOther.push(s), { databaseUrl: handle.url }),
    ]);
    await announceFromAnotherProcess("paper-a", { type: "revision", revision: 1 });
    await pollUntil(
      "revision 1 before the restart",
      () => onPaper,
      (s) => s.some((x) => x.type === "revision"),
    );
    expect(liveFeedIsUp()).toBe(true);

    const down = await takeTestDatabaseDown(handle.url);
    await pollUntil(
      "the feed to notice the loss",
      () => liveFeedIsUp(),
      (up) => up === false,
    );
    // The pool's idle connections were ended too: a query fails while the database is down…
    await expect(handle.db.execute(sql`SELECT 1`)).rejects.toThrow();
    await down.bringBack();

    // …and the feed comes back without any follower asking, telling each of them to re-read.
    await pollUntil(
      "a resync on paper-a",
      () => onPaper,
      (s) => s.some((x) => x.type === "resync"),
    );
    await pollUntil(
      "a resync on paper-b",
      () => onOther,
      (s) => s.some((x) => x.type === "resync"),
    );
    expect(liveFeedIsUp()).toBe(true);
    await announceFromAnotherProcess("paper-a", { type: "revision", revision: 2 });
    await pollUntil(
      "revision 2 after the restart",
      () => onPaper,
      (s) => s.some((x) => x.type === "revision" && x.revision === 2),
    );
    // The pool serves again (it replaced the connections the restart ended).
    await expect(handle.db.execute(sql`SELECT 1`)).resolves.toBeTruthy();
    for (const stop of stops) stop();
  });

  it("ignores a NOTIFY on its channel that is not a studio announcement", async () => {
    const heard: LiveSignal[] = [];
    const stop = await followRubric("paper-c", (s) => heard.push(s), { databaseUrl: handle.url });
    const client = new pg.Client({ connectionString: handle.url });
    await client.connect();
    await client.query(`SELECT pg_notify('rubric_revisions', 'not json')`);
    await client.query(`SELECT pg_notify('rubric_revisions', $1)`, [
      JSON.stringify({ paperId: "paper-c", signal: { type: "resync" }, origin: "another-process" }),
    ]);
    await client.query(`SELECT pg_notify('rubric_revisions', $1)`, [
      JSON.stringify({ paperId: "paper-c", signal: { type: "revision", revision: 9 }, origin: "another-process" }),
    ]);
    await client.end();
    // NOTIFYs arrive in order: once the last is heard, the two before it were seen and dropped.
    await pollUntil(
      "revision 9",
      () => heard,
      (s) => s.length > 0,
    );
    expect(heard).toEqual([{ type: "revision", revision: 9 }]);
    stop();
  });
});
