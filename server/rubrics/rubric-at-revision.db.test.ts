import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { AppError } from "@/lib/errors";
import { importRubricIntoPaper } from "@/server/papers/import";
import { OperationError, type RubricOperation } from "@/lib/rubric/operations";
import { readPaperText, skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import { canonicalRows, randomOperation, seededRandom, type Random } from "@/lib/rubric/random-ops.testutil";
import { parseRubricJson, serializeRubric } from "@/lib/rubric/paperbench";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { DEMO_RUBRIC, seedDemoRubric } from "@/test/seed-demo-rubric";
import { rubricNodes } from "@/db/schema";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { createUser } from "@/db/queries/users";
import { applyRubricOperation } from "./apply-rubric-operation";
import { restoreRubricRevision, restoreRubricVersion } from "./restore-rubric";
import { listRubricRevisions } from "./revision-log";
import { getRubricRowsAtRevision, getRubricTreeAtRevision } from "./rubric-at-revision";
import { saveRubricVersion } from "./save-rubric-version";
import { propertyParams } from "@/test/property";

describe.each(testDatabaseKinds())("the rubric as of a revision on %s", (kind) => {
  let handle: DbHandle;
  let paperNo = 0;
  let opNo = 0;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** A new paper with the demo rubric (revision 1); its rubric id. */
  async function demoPaper(rubricText = DEMO_RUBRIC): Promise<{ paperId: string; rubricId: string }> {
    const { paperId, rubricId } = await seedDemoRubric(handle, `hist-${++paperNo}`, rubricText);
    return { paperId, rubricId };
  }

  const apply = (paperId: string, op: RubricOperation, userId: string | null = null) =>
    applyRubricOperation(handle, { paperId, userId, request: { clientOpId: `h-${++opNo}`, baseRevision: 0, op } });

  async function deletedRows(rubricId: string) {
    const rows = await handle.db
      .select()
      .from(rubricNodes)
      .where(sql`${rubricNodes.rubricId} = ${rubricId} AND ${rubricNodes.deletedRevision} IS NOT NULL`);
    return rows;
  }

  /**
   * Applies `steps` random changes (edits, merges, deletes, restores, version and revision
   * restores, undos of batches, now and then a re-import) and returns the live rows captured right
   * after each revision, by revision. Refused changes are skipped, as the server logs none.
   */
  async function randomHistory(r: Random, paperId: string, rubricId: string, steps: number): Promise<Map<number, string>> {
    const captured = new Map<number, string>();
    const capture = async () => {
      const rubric = (await getRubricByPaperId(handle.db, paperId))!;
      captured.set(rubric.revision, canonicalRows(await getLiveNodeRows(handle.db, rubricId)));
    };
    await capture();
    const versions: string[] = [];
    let lastInverse: RubricOperation | null = null;
    for (let i = 0; i < steps; i++) {
      const live = await getLiveNodeRows(handle.db, rubricId);
      try {
        const roll = r.next();
        if (roll < 0.04) {
          versions.push((await saveRubricVersion(handle, { paperId, name: `v${i}`, userId: null })).id);
          continue;
        } else if (roll < 0.08 && versions.length > 0) {
          lastInverse = (await restoreRubricVersion(handle, { paperId, versionId: r.pick(versions), userId: null })).inverse;
        } else if (roll < 0.12) {
          const now = (await getRubricByPaperId(handle.db, paperId))!.revision;
          const target = 1 + r.int(now);
          lastInverse = (await restoreRubricRevision(handle, { paperId, revision: target, userId: null })).inverse;
        } else if (roll < 0.16 && lastInverse) {
          // Undo of the last change (a batch when that was a restore).
          lastInverse = (await apply(paperId, lastInverse)).inverse;
        } else if (roll < 0.18) {
          await importRubricIntoPaper(handle, { paperId, rubricText: DEMO_RUBRIC, userId: null, source: "again" });
          lastInverse = null;
        } else {
          const op = randomOperation(r, live, await deletedRows(rubricId));
          if (!op) continue;
          lastInverse = (await apply(paperId, op)).inverse;
        }
      } catch (err) {
        if (!(err instanceof OperationError) && !(err instanceof AppError)) throw err;
        continue;
      }
      await capture();
    }
    return captured;
  }

  it("replays any revision to the live rows captured right after it (random histories)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const { paperId, rubricId } = await demoPaper();
        const captured = await randomHistory(seededRandom(seed), paperId, rubricId, 40);
        expect(captured.size).toBeGreaterThan(10);
        for (const [revision, rows] of captured) {
          expect(canonicalRows(await getRubricRowsAtRevision(handle.db, rubricId, revision)), `seed ${seed}, revision ${revision}`).toBe(rows);
        }
      }),
      propertyParams({ numRuns: kind === "pglite" ? 8 : 5 }),
    );
  }, 300_000);

  it("answers revision 0 as empty, and refuses a future or malformed revision", async () => {
    const { paperId, rubricId } = await demoPaper();
    expect(await getRubricRowsAtRevision(handle.db, rubricId, 0)).toEqual([]);
    await expect(getRubricTreeAtRevision(handle.db, rubricId, 0)).rejects.toMatchObject({ code: "not_found" });
    expect(serializeRubric(await getRubricTreeAtRevision(handle.db, rubricId, 1))).toBe(DEMO_RUBRIC);
    const rows = await getLiveNodeRows(handle.db, rubricId);
    await apply(paperId, { kind: "update", key: rows[1].key, fields: { weight: 7 } });
    for (const bad of [3, -1, 1.5, Number.NaN]) {
      const err = await getRubricRowsAtRevision(handle.db, rubricId, bad).catch((e: unknown) => e);
      expect(err, String(bad)).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("bad_request");
    }
    expect((await getRubricRowsAtRevision(handle.db, rubricId, 3).catch((e: AppError) => e.message)) as string).toMatch(/at revision 2/);
    expect(serializeRubric(await getRubricTreeAtRevision(handle.db, rubricId, 1))).toBe(DEMO_RUBRIC);
  });

  it("restores a revision as one undoable batch, on the same path as a version", async () => {
    const { paperId, rubricId } = await demoPaper();
    const original = canonicalRows(await getLiveNodeRows(handle.db, rubricId));
    const rows = await getLiveNodeRows(handle.db, rubricId);
    const leaf = rows.find((n) => !rows.some((c) => c.parentKey === n.key))!;
    await apply(paperId, { kind: "update", key: leaf.key, fields: { requirements: "Changed" } });
    await apply(paperId, { kind: "delete", keys: [leaf.key] });
    const result = await restoreRubricRevision(handle, { paperId, revision: 1, userId: null });
    expect(result.inverse.kind).toBe("batch");
    const restored = await getLiveNodeRows(handle.db, rubricId);
    // The deleted leaf comes back under a fresh key (a key is never reused); everything else is as it was.
    expect(restored.filter((n) => n.key !== leaf.key && !rows.some((o) => o.key === n.key))).toHaveLength(1);
    expect(serializeRubric(await getRubricTreeAtRevision(handle.db, rubricId, result.revision))).toBe(DEMO_RUBRIC);
    await expect(
      restoreRubricRevision(handle, { paperId, revision: result.revision, userId: null }),
    ).rejects.toMatchObject({ code: "conflict", message: `The live rubric already equals revision ${result.revision}` });
    await expect(restoreRubricRevision(handle, { paperId, revision: 0, userId: null })).rejects.toMatchObject({
      code: "conflict",
    });
    await apply(paperId, result.inverse);
    expect(canonicalRows(await getLiveNodeRows(handle.db, rubricId))).not.toBe(original);
  });

  it("replays over imports logged before they carried their keys", async () => {
    const { paperId, rubricId } = await demoPaper();
    const captured = await randomHistory(seededRandom(7), paperId, rubricId, 0);
    const r = seededRandom(11);
    for (let i = 0; i < 30; i++) {
      const op = randomOperation(r, await getLiveNodeRows(handle.db, rubricId), await deletedRows(rubricId));
      if (!op) continue;
      const applied = await apply(paperId, op).catch(() => null);
      if (!applied) continue;
      captured.set(applied.revision, canonicalRows(await getLiveNodeRows(handle.db, rubricId)));
    }
    // As the studio logged imports before: the tree only.
    await handle.db.execute(sql`UPDATE rubric_operations SET payload = payload - 'keys' WHERE kind = 'import'`);
    for (const [revision, rows] of captured) expect(canonicalRows(await getRubricRowsAtRevision(handle.db, rubricId, revision))).toBe(rows);

    // Once a later import replaced its rows, the edits after it can no longer be replayed: said so.
    const before = (await getRubricByPaperId(handle.db, paperId))!.revision;
    await importRubricIntoPaper(handle, { paperId, rubricText: DEMO_RUBRIC, userId: null, source: "again" });
    await handle.db.execute(sql`UPDATE rubric_operations SET payload = payload - 'keys' WHERE kind = 'import'`);
    await expect(getRubricRowsAtRevision(handle.db, rubricId, before)).rejects.toMatchObject({ code: "conflict" });
    expect(serializeRubric(await getRubricTreeAtRevision(handle.db, rubricId, 1))).toBe(DEMO_RUBRIC);
    expect(serializeRubric(await getRubricTreeAtRevision(handle.db, rubricId, before + 1))).toBe(DEMO_RUBRIC);
  });

  it("lists the log newest first, one line per revision, with who and what", async () => {
    const { paperId, rubricId } = await demoPaper();
    const user = await createUser(handle.db, { email: `log-${paperId}@example.org`, name: "Lou" });
    const rows = await getLiveNodeRows(handle.db, rubricId);
    const leaf = rows.find((n) => !rows.some((c) => c.parentKey === n.key))!;
    await apply(paperId, { kind: "update", key: leaf.key, fields: { weight: 3 } }, user.id);
    await apply(paperId, { kind: "delete", keys: [leaf.key] }, user.id);
    const version = await saveRubricVersion(handle, { paperId, name: "v", userId: null });
    await apply(paperId, { kind: "restore", keys: [leaf.key] }, user.id);
    await restoreRubricVersion(handle, { paperId, versionId: version.id, userId: null });
    const log = await listRubricRevisions(handle.db, rubricId);
    expect(log.map((l) => l.revision)).toEqual([5, 4, 3, 2, 1]);
    expect(log[4].summary).toBe("Imported the rubric (33 nodes)");
    expect(log[3]).toMatchObject({ kind: "update", user: { name: "Lou" } });
    expect(log[3].summary).toMatch(/^Changed weight of “.+”$/);
    expect(log[2].summary).toMatch(/^Deleted “.+”$/);
    expect(log[1].summary).toMatch(/^Restored “.+”$/);
    expect(log[0].summary).toBe("Several changes at once: 1 delete");
    expect((await listRubricRevisions(handle.db, rubricId, { before: 2, limit: 1 })).map((l) => l.revision)).toEqual([2]);
  });

  it.skipIf(skipWithoutData)("rebuilds a revision of a pinn-sized rubric after hundreds of operations", async () => {
    const pinn = readPaperText("pinn", "rubric.json");
    const { paperId, rubricId } = await demoPaper(pinn);
    const nodes = (await getLiveNodeRows(handle.db, rubricId)).length;
    const parsed = parseRubricJson(pinn);
    expect(parsed.ok && nodes === countNodes(parsed.tree)).toBe(true);
    const r = seededRandom(2024);
    let applied = 0;
    const version = await saveRubricVersion(handle, { paperId, name: "start", userId: null });
    let live = await getLiveNodeRows(handle.db, rubricId);
    let deleted = await deletedRows(rubricId);
    for (let i = 0; i < 300; i++) {
      const op = randomOperation(r, live, deleted);
      if (!op) continue;
      if (await apply(paperId, op).catch(() => null)) applied++;
      // Reading the rows back costs more than the operation; do it now and then.
      if (i % 10 === 0 || op.kind === "restore" || op.kind === "delete") {
        live = await getLiveNodeRows(handle.db, rubricId);
        deleted = await deletedRows(rubricId);
      }
    }
    // A restore of the starting version: one big batch.
    await restoreRubricVersion(handle, { paperId, versionId: version.id, userId: null });
    const latest = (await getRubricByPaperId(handle.db, paperId))!.revision;
    // How fast: `npm run bench`'s history_replay_pinn_ms.
    const rows = await getRubricRowsAtRevision(handle.db, rubricId, latest);
    expect(canonicalRows(rows)).toBe(canonicalRows(await getLiveNodeRows(handle.db, rubricId)));
    expect(applied).toBeGreaterThan(150);
  }, 300_000);
});

function countNodes(tree: { sub_tasks: unknown[] }): number {
  return 1 + (tree.sub_tasks as { sub_tasks: unknown[] }[]).reduce((n, c) => n + countNodes(c), 0);
}
