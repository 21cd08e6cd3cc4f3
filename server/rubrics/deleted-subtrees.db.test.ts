import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { OperationError, type RubricOperation } from "@/lib/rubric/operations";
import { randomOperation, seededRandom } from "@/lib/rubric/random-ops.testutil";
import { compareSiblings, type NodeRow } from "@/lib/rubric/tree-rows";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { seedDemoRubric } from "@/test/seed-demo-rubric";
import { getLiveNodeRows } from "@/db/queries/rubrics";
import { createUser } from "@/db/queries/users";
import { rubricNodes } from "@/db/schema";
import { applyRubricOperation } from "./apply-rubric-operation";
import { listDeletedSubtrees } from "./deleted-subtrees";
import { restoreRubricVersion } from "./restore-rubric";
import { saveRubricVersion } from "./save-rubric-version";
import { propertyParams } from "@/test/property";

describe.each(testDatabaseKinds())("deleted subtrees on %s", (kind) => {
  let handle: DbHandle;
  let paperNo = 0;
  let opNo = 0;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  async function demoPaper(): Promise<{ paperId: string; rubricId: string; rows: NodeRow[] }> {
    return seedDemoRubric(handle, `del-${++paperNo}`);
  }
  const apply = (paperId: string, op: RubricOperation, userId: string | null = null) =>
    applyRubricOperation(handle, { paperId, userId, request: { clientOpId: `d-${++opNo}`, baseRevision: 0, op } });
  const deletedCount = async (rubricId: string) =>
    Number(
      (
        await handle.db
          .select({ n: sql<number>`count(*)::int` })
          .from(rubricNodes)
          .where(sql`${rubricNodes.rubricId} = ${rubricId} AND ${rubricNodes.deletedRevision} IS NOT NULL`)
      )[0].n,
    );

  it("lists each deleted subtree once, newest first, with who, when, what and how many nodes", async () => {
    const { paperId, rubricId, rows } = await demoPaper();
    const ada = await createUser(handle.db, { email: `ada-${paperId}@example.org`, name: "Ada" });
    const bob = await createUser(handle.db, { email: `bob-${paperId}@example.org`, name: null });
    const kids = (key: string) => rows.filter((r) => r.parentKey === key).sort(compareSiblings);
    const root = rows.find((r) => r.parentKey === null)!;
    const [a, b] = kids(root.key);
    const inner = kids(a.key)[0];
    const size = (key: string): number => 1 + kids(key).reduce((n, k) => n + size(k.key), 0);

    expect(await listDeletedSubtrees(handle.db, rubricId)).toEqual([]);
    const first = await apply(paperId, { kind: "delete", keys: [inner.key] }, ada.id);
    const second = await apply(paperId, { kind: "delete", keys: [a.key, b.key] }, bob.id);
    const list = await listDeletedSubtrees(handle.db, rubricId);
    expect(list.map((d) => [d.key, d.nodeCount, d.deletedRevision])).toEqual(
      [
        [a.key, size(a.key) - size(inner.key), second.revision],
        [b.key, size(b.key), second.revision],
        [inner.key, size(inner.key), first.revision],
      ].sort((x, y) => (y[2] as number) - (x[2] as number) || ((x[0] as string) < (y[0] as string) ? -1 : 1)),
    );
    const entry = list.find((d) => d.key === inner.key)!;
    expect(entry).toMatchObject({
      requirements: inner.requirements,
      nodeId: inner.nodeId,
      parentKey: a.key,
      parentRequirements: a.requirements,
      deletedBy: { name: "Ada", email: ada.email },
      kind: "delete",
      enclosedBy: [{ key: a.key, requirements: a.requirements, deletedRevision: second.revision }],
    });
    expect(entry.deletedAt).toBeInstanceOf(Date);
    expect(list.find((d) => d.key === b.key)).toMatchObject({ deletedBy: { name: null, email: bob.email }, enclosedBy: [], parentRequirements: root.requirements });

    // Its parent is deleted too: the server refuses and says why; restoring the chain, outermost first, works.
    const refused = await apply(paperId, { kind: "restore", keys: [inner.key] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OperationError);
    expect((refused as OperationError).code).toBe("node_deleted");
    expect((refused as OperationError).message).toMatch(/Its parent was deleted \(in revision \d+\); restore it first/);
    await apply(paperId, { kind: "batch", ops: [...entry.enclosedBy.map((e) => ({ kind: "restore" as const, keys: [e.key] })), { kind: "restore", keys: [inner.key] }] });
    expect((await listDeletedSubtrees(handle.db, rubricId)).map((d) => d.key)).toEqual([b.key]);

    // A version restore deletes too, as a batch.
    const version = await saveRubricVersion(handle, { paperId, name: "v", userId: null });
    await apply(paperId, { kind: "restore", keys: [b.key] });
    await restoreRubricVersion(handle, { paperId, versionId: version.id, userId: ada.id });
    expect(await listDeletedSubtrees(handle.db, rubricId)).toMatchObject([{ key: b.key, kind: "batch", deletedBy: { name: "Ada" } }]);
  });

  it("covers every deleted row: restoring every listed subtree, enclosing ones first, brings all back", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const { paperId, rubricId } = await demoPaper();
        const r = seededRandom(seed);
        for (let i = 0; i < 40; i++) {
          const deleted = await handle.db.select().from(rubricNodes).where(sql`${rubricNodes.rubricId} = ${rubricId} AND ${rubricNodes.deletedRevision} IS NOT NULL`);
          const op = randomOperation(r, await getLiveNodeRows(handle.db, rubricId), deleted);
          if (op) await apply(paperId, op).catch(() => null);
        }
        const list = await listDeletedSubtrees(handle.db, rubricId);
        expect(list.reduce((n, d) => n + d.nodeCount, 0)).toBe(await deletedCount(rubricId));
        expect(list.map((d) => d.deletedRevision)).toEqual([...list.map((d) => d.deletedRevision)].sort((x, y) => y - x));
        if (list.length === 0) return;
        // An enclosing delete is newer than what it encloses: newest first, each after its enclosures.
        const order: string[] = [];
        for (const d of list) for (const k of [...d.enclosedBy.map((e) => e.key), d.key]) if (!order.includes(k)) order.push(k);
        await apply(paperId, { kind: "batch", ops: order.map((k) => ({ kind: "restore" as const, keys: [k] })) });
        expect(await deletedCount(rubricId)).toBe(0);
      }),
      propertyParams({ numRuns: 6 }),
    );
  }, 300_000);
});
