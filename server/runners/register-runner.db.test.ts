/**
 * Runner registration is bounded (issue 19, item 12): a runner starting again keeps its row, stale
 * idle runners are pruned, and one token holds at most 64 runners, beyond which a registration is
 * a 429 with Retry-After; a flood of registrations from one token leaves the real runners on
 * /runners. On both databases; the route's answer through the real route handler.
 */
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getLiveRunnerTokenByHash } from "@/db/queries/runners";
import type { RunnerToken } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { RunnerCapabilities } from "@/lib/runner/protocol";
import { stopRubricFeed } from "@/server/live/rubric-feed";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { listRunnersForStaff } from "./list-runners";
import { RUNNER_REGISTRATION, registerRunner } from "./register-runner";
import { hashToken } from "@/server/auth/token-hash";
import { createRunnerToken } from "./runner-tokens";

const registerRoute = await import("@/app/api/runner/register/route");

const CAPS: RunnerCapabilities = {
  gpus: [],
  cpus: 2,
  memoryBytes: 1 << 30,
  backend: "sandbox",
  maxJobs: 1,
  hostname: "gpu-host-1",
};
const MAX = RUNNER_REGISTRATION.maxRunnersPerToken;

describe.each(testDatabaseKinds())("runner registration on %s", (kind) => {
  let handle: DbHandle;
  const tokens: { plain: string; row: RunnerToken }[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = Promise.resolve(handle);
    for (const name of ["fleet", "flooder"]) {
      const made = await createRunnerToken(handle, { name, createdBy: null });
      tokens.push({ plain: made.token, row: (await getLiveRunnerTokenByHash(handle.db, hashToken(made.token)))! });
    }
  });
  afterAll(async () => {
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = undefined;
    await stopRubricFeed();
    await handle?.close();
  });

  const rowsOf = async (token: RunnerToken) =>
    Number(
      (await handle.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM runners WHERE token_id = ${token.id}`))
        .rows[0].n,
    );

  it("gives a runner starting again on the same host its row back, with its new capabilities", async () => {
    const [fleet] = tokens;
    const first = await registerRunner(handle, fleet.row, { name: "gpu-01", capabilities: CAPS });
    const again = await registerRunner(handle, fleet.row, { name: "gpu-01", capabilities: { ...CAPS, maxJobs: 4 } });
    expect(again.runnerId).toBe(first.runnerId);
    // The same name on another host is another runner.
    const elsewhere = await registerRunner(handle, fleet.row, {
      name: "gpu-01",
      capabilities: { ...CAPS, hostname: "gpu-host-2" },
    });
    expect(elsewhere.runnerId).not.toBe(first.runnerId);
    expect(await rowsOf(fleet.row)).toBe(2);
    const listed = (await listRunnersForStaff(handle)).find((r) => r.id === first.runnerId);
    expect(listed?.capabilities.maxJobs).toBe(4);
  });

  it("holds a token to 64 runners under a flood of 300 registrations at once: the rest are 429 with Retry-After, and /runners keeps the real runners", async () => {
    const [fleet, flooder] = tokens;
    const real = await registerRunner(handle, flooder.row, {
      name: "real-runner",
      capabilities: { ...CAPS, hostname: "real-host" },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 300 }, (_, i) =>
        registerRunner(handle, flooder.row, { name: `flood-${i}`, capabilities: { ...CAPS, hostname: `flood-${i}` } }),
      ),
    );
    const accepted = results.filter((r) => r.status === "fulfilled");
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
    expect(accepted).toHaveLength(MAX - 1);
    expect(refused).toHaveLength(300 - (MAX - 1));
    for (const err of refused) {
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "too_many_requests", status: 429 });
      expect((err as AppError).retryAfterS).toBeGreaterThan(RUNNER_REGISTRATION.staleAfterS - 120);
    }
    expect(await rowsOf(flooder.row)).toBe(MAX);

    // The real runner can still start again (its own row), and /runners lists it and the other token's runners.
    expect(
      (
        await registerRunner(handle, flooder.row, {
          name: "real-runner",
          capabilities: { ...CAPS, hostname: "real-host" },
        })
      ).runnerId,
    ).toBe(real.runnerId);
    const listed = (await listRunnersForStaff(handle)).map((r) => r.id);
    expect(listed).toContain(real.runnerId);
    expect(listed.filter((id) => id !== real.runnerId).length).toBeGreaterThanOrEqual(
      MAX - 1 + (await rowsOf(fleet.row)),
    );

    // Over HTTP: the runner route answers 429 with the wait, in the one error shape.
    const res = await registerRoute.POST(
      new NextRequest("http://127.0.0.1/api/runner/register", {
        method: "POST",
        headers: { authorization: `Bearer ${flooder.plain}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "one-more", capabilities: { ...CAPS, hostname: "one-more" } }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "too_many_requests",
      message: expect.stringContaining(`at most ${MAX}`),
    });
  });

  it("prunes runners silent for an hour that run nothing, which makes room again", async () => {
    const flooder = tokens[1];
    await handle.db.execute(
      sql`UPDATE runners SET last_seen_at = now() - interval '2 hours' WHERE token_id = ${flooder.row.id} AND name LIKE 'flood-%'`,
    );
    const next = await registerRunner(handle, flooder.row, {
      name: "after-the-flood",
      capabilities: { ...CAPS, hostname: "later" },
    });
    expect(await rowsOf(flooder.row)).toBe(2);
    expect((await listRunnersForStaff(handle)).map((r) => r.name)).toEqual(
      expect.arrayContaining(["after-the-flood", "real-runner", "gpu-01"]),
    );
    expect(next.runnerId).toEqual(expect.any(String));
  });
});
