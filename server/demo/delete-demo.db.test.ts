/**
 * Deleting the demo (issue 11, item 2): every demo user, paper and agent goes, with all that hangs
 * off them, in one transaction; real data, including what demo users did to it, stays.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle, Store } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { getGradingById, listGradingsByPaperId } from "@/db/queries/gradings";
import { listGradingOverrides, listVerdictStates } from "@/db/queries/grading-verdicts";
import { getPaperById } from "@/db/queries/papers";
import { getUserByEmail, setUserPasswordHash } from "@/db/queries/users";
import { hashPassword } from "@/server/auth/password";
import { importGrading } from "@/server/gradings/import-grading";
import { overrideLeafScoreInTransaction } from "@/server/gradings/override-leaf-score";
import { followAccess } from "@/server/live/rubric-feed";
import { exportRubricJson } from "@/server/papers/export";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { DEMO_USERS, seedDemo } from "@/server/seed/seed";
import { DEMO_AGENTS } from "@/server/seed/seed-gradings";
import { createAccount } from "@/server/users/create-account";
import { isSessionLive, startSession } from "@/server/auth/sessions";
import { DEMO_DIR, gradedDemoText } from "@/test/blind-review";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { deleteDemo } from "./delete-demo";
import { holdsDemoData, listDemoSignIns } from "./demo-status";

const DEMO_PAPER = "demo-adaptive-clipping";
const REAL_PAPER = "real-clipping";
const REAL_AGENT = "BasicAgent · real-model";

async function count(store: Store, table: string, where = "true"): Promise<number> {
  const result = await store.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`));
  return Number((result.rows[0] as { n: number }).n);
}

describe.each(testDatabaseKinds())("deleting the demo on %s", (kind) => {
  let handle: DbHandle;
  let store: Store;
  let realStaff: string;
  let realGrading: string;
  let realScoreBefore: number;
  let realExportBefore: string;
  let demoStaffSession: { userId: string; sessionId: string };

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    store = handle;
    await seedDemo(handle.db);
    const demoStaff = (await getUserByEmail(handle.db, DEMO_USERS[0].email))!;
    const demoGrader = (await getUserByEmail(handle.db, "grader@demo.rubric.studio"))!;
    realStaff = (
      await createAccount(handle.db, {
        email: "real-staff@example.org",
        name: "Real Staff",
        password: "a real staff password 7f3k",
        isStaff: true,
      })
    ).id;

    // Real data a demo user created: a paper and a grading of a real agent on it.
    await importPaperFolder(store, {
      files: readPaperFolder(DEMO_DIR).files,
      paperId: REAL_PAPER,
      userId: demoStaff.id,
      source: "test",
    });
    realGrading = (
      await importGrading(store, {
        paperId: REAL_PAPER,
        agentName: REAL_AGENT,
        runIndex: 1,
        variant: "full",
        human: false,
        fileText: gradedDemoText(1),
        fileName: "real.json",
        userId: demoStaff.id,
      })
    ).gradingId;
    // The demo grader overrode a leaf of the real grading: the override is real history and stays.
    const leaf = (await listVerdictStates(handle.db, realGrading)).find((v) => v.score === 0)!;
    await handle.db.transaction((tx) =>
      overrideLeafScoreInTransaction(tx, {
        gradingId: realGrading,
        nodeKey: leaf.nodeKey,
        userId: demoGrader.id,
        score: 1,
        reason: "seen in train.py",
      }),
    );
    // Runs that hang off demo data go with it: a real agent's run on the demo paper, a demo agent's run on the real paper.
    await importGrading(store, {
      paperId: DEMO_PAPER,
      agentName: REAL_AGENT,
      runIndex: 1,
      variant: "full",
      human: false,
      fileText: gradedDemoText(2),
      fileName: "on-demo.json",
      userId: realStaff,
    });
    await importGrading(store, {
      paperId: REAL_PAPER,
      agentName: DEMO_AGENTS[0].name,
      runIndex: 1,
      variant: "full",
      human: false,
      fileText: gradedDemoText(3),
      fileName: "demo-agent.json",
      userId: realStaff,
    });

    realScoreBefore = (await getGradingById(handle.db, realGrading))!.score;
    realExportBefore = await exportRubricJson(store, REAL_PAPER);
    demoStaffSession = { userId: demoStaff.id, sessionId: await startSession(store, demoStaff.id) };
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("marks what the seed created as demo data, and lists the demo accounts only in the embedded mode", async () => {
    expect(await holdsDemoData(store)).toBe(true);
    expect(await count(store, "users", "is_demo")).toBe(DEMO_USERS.length);
    expect(await count(store, "papers", "is_demo")).toBe(1);
    expect(
      (await listAgents(handle.db))
        .filter((a) => a.isDemo)
        .map((a) => a.name)
        .sort(),
    ).toEqual(DEMO_AGENTS.map((a) => a.name).sort());
    for (const agent of DEMO_AGENTS) expect(agent.name).toMatch(/^Demo /);
    expect(await count(store, "users", "NOT is_demo")).toBe(1);
    expect(await count(store, "papers", "NOT is_demo")).toBe(1);

    // The sign-in page's list: never on PostgreSQL, whatever the database holds.
    expect(await listDemoSignIns({ db: handle.db, kind: "postgres" })).toEqual([]);
    expect((await listDemoSignIns({ db: handle.db, kind: "pglite" })).map((a) => a.email)).toEqual(
      DEMO_USERS.map((u) => u.email),
    );
    // A demo user who changed their password is not listed with the seeded one.
    const author = (await getUserByEmail(handle.db, "author@demo.rubric.studio"))!;
    const seededHash = author.passwordHash!;
    await setUserPasswordHash(handle.db, author.id, await hashPassword("a new password for the author"));
    expect((await listDemoSignIns({ db: handle.db, kind: "pglite" })).map((a) => a.email)).not.toContain(author.email);
    await setUserPasswordHash(handle.db, author.id, seededHash);
  });

  it("deletes every demo row and what hangs off it in one action, ends the demo users' streams, and leaves real data as it was", async () => {
    let told = 0;
    const unfollow = await followAccess(demoStaffSession.userId, () => told++);
    expect(await isSessionLive(store, demoStaffSession)).toBe(true);
    const deleted = await deleteDemo(store);
    unfollow();
    expect(deleted).toEqual({ users: DEMO_USERS.length, papers: 1, agents: DEMO_AGENTS.length });

    expect(await holdsDemoData(store)).toBe(false);
    for (const table of ["users", "papers", "agents"]) expect(await count(store, table, "is_demo")).toBe(0);
    expect(await getPaperById(handle.db, DEMO_PAPER)).toBeNull();
    for (const u of DEMO_USERS) expect(await getUserByEmail(handle.db, u.email)).toBeNull();
    // Nothing of the demo paper or the demo agents is left behind.
    expect(await count(store, "rubrics", `paper_id = '${DEMO_PAPER}'`)).toBe(0);
    expect(await count(store, "submissions", `paper_id = '${DEMO_PAPER}'`)).toBe(0);
    expect(await count(store, "paper_members")).toBe(0);
    expect(await count(store, "grading_assignments")).toBe(0);
    expect(await count(store, "user_sessions", `user_id = '${demoStaffSession.userId}'`)).toBe(0);
    expect(
      await count(store, "rubric_versions v JOIN rubrics r ON r.id = v.rubric_id", `r.paper_id <> '${REAL_PAPER}'`),
    ).toBe(0);
    // The demo staff's session is over, and their open streams were told at once.
    expect(await isSessionLive(store, demoStaffSession)).toBe(false);
    expect(told).toBe(1);
    expect(await listDemoSignIns({ db: handle.db, kind: "pglite" })).toEqual([]);

    // Real data: the real user, paper, agent and grading, the demo grader's override of it included.
    expect((await getUserByEmail(handle.db, "real-staff@example.org"))?.id).toBe(realStaff);
    expect(await exportRubricJson(store, REAL_PAPER)).toBe(realExportBefore);
    expect((await getPaperById(handle.db, REAL_PAPER))?.createdBy).toBeNull();
    expect((await listAgents(handle.db)).map((a) => a.name)).toEqual([REAL_AGENT]);
    const remaining = await listGradingsByPaperId(handle.db, REAL_PAPER);
    expect(remaining.map((g) => [g.id, g.agentName])).toEqual([[realGrading, REAL_AGENT]]);
    expect((await getGradingById(handle.db, realGrading))!.score).toBe(realScoreBefore);
    const overrides = await listGradingOverrides(handle.db, realGrading);
    expect(overrides.map((o) => [o.reason, o.user])).toEqual([["seen in train.py", null]]);
  });

  it("answers 404 when there is no demo left to delete", async () => {
    await expect(deleteDemo(store)).rejects.toMatchObject({ code: "not_found" });
  });
});
