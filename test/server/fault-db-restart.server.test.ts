/**
 * Fault suite: the database restarts under two studio instances with editors' live streams open
 * (issue 23). Every change made after the restart — through either instance, or by another
 * process as the CLI makes them — reaches every stream, in order and without gaps; readiness
 * (`/api/health`) says the database is down while it is; no connection's error escapes as an
 * uncaught exception. The restart is PostgreSQL's own: connections refused and every open one
 * ended "due to administrator command", on this test's database only (other suites run beside).
 * Needs DATABASE_URL (skipped without it; CI sets it).
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { takeTestDatabaseDown } from "@/test/databases";
import { pollUntil } from "@/test/poll";
import { DEMO_PAPER_ID, ROOT, api, postOperation, waitFor, type Studio } from "./harness";
import { twoStudiosSuite } from "./studio-suite";

/** A change made by another process (a second studio, the CLI): applied and announced there. */
function applyInAnotherProcess(databaseUrl: string, op: RubricOperation): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "test/announce-operation.ts",
        databaseUrl,
        DEMO_PAPER_ID,
        JSON.stringify(op),
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    child.once("exit", (code) =>
      code === 0 ? resolve(Number(out.trim())) : reject(new Error(`the other process failed (${code}): ${err}`)),
    );
  });
}

describe.runIf(process.env.DATABASE_URL)("a database restart under two studio instances with streams open", () => {
  const two = twoStudiosSuite("fault-db-restart");

  const health = async (studio: Studio) => {
    const res = await fetch(`${studio.url}/api/health`);
    return { status: res.status, body: (await res.json()) as { database: string; liveFeed: string } };
  };

  /** Posts until the instance answers 200 (its pool may still hold a connection the restart ended); the same clientOpId is applied once. */
  const postUntilApplied = (studio: Studio, cookie: string, baseRevision: number, op: RubricOperation) => {
    const clientOpId = `after-restart-${crypto.randomUUID()}`;
    return pollUntil(
      `the change through ${studio.url} to be applied`,
      () => postOperation(studio.url, cookie, DEMO_PAPER_ID, { clientOpId, baseRevision, op }),
      (answer) => answer.status === 200,
      100,
    );
  };

  it("every change after the restart reaches every stream; readiness says down while it is", async () => {
    const start = await api<{ revision: number; nodes: NodeRow[] }>(
      two.a.url,
      two.cookieA,
      "GET",
      `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`,
    );
    expect(start.status).toBe(200);
    const leaves = start.body.nodes.filter((n) => n.parentKey !== null);
    const weight = (i: number): RubricOperation => ({ kind: "update", key: leaves[i].key, fields: { weight: i + 2 } });
    const onA = await two.follow(two.a, two.cookieA, start.body.revision);
    const onB = await two.follow(two.b, two.cookieB, start.body.revision);
    expect((await health(two.a)).body).toEqual({ database: "up", liveFeed: "up" });

    const down = await takeTestDatabaseDown(two.db.env.DATABASE_URL);
    const downAnswer = await pollUntil(
      "A to report the database down",
      () => health(two.a),
      (h) => h.status === 503,
    );
    expect(downAnswer.body.database).toBe("down");
    await down.bringBack();
    for (const studio of [two.a, two.b])
      await pollUntil(
        `${studio.url} ready again`,
        () => health(studio),
        (h) => h.status === 200,
      );

    // After the restart: one change through each instance, and one by another process.
    const throughA = await postUntilApplied(two.a, two.cookieA, start.body.revision, weight(0));
    const byOther = await applyInAnotherProcess(two.db.env.DATABASE_URL, weight(1));
    const throughB = await postUntilApplied(two.b, two.cookieB, start.body.revision, weight(2));
    const last = Math.max(throughA.body.revision!, byOther, throughB.body.revision!);
    expect(last).toBe(start.body.revision + 3);

    const expected = [1, 2, 3].map((i) => start.body.revision + i);
    for (const [name, f] of [
      ["A", onA],
      ["B", onB],
    ] as const) {
      await waitFor(`every change on ${name}'s stream`, () => f.events.some((e) => e.revision === last));
      expect(
        f.events.map((e) => e.revision),
        `revisions on ${name}`,
      ).toEqual(expected);
    }
    expect((await health(two.a)).body).toEqual({ database: "up", liveFeed: "up" });
    for (const studio of [two.a, two.b]) expect(studio.output()).not.toMatch(/uncaughtException|unhandledRejection/);
  });
});
