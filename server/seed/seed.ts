import "server-only";
import path from "node:path";
import { addPaperMember } from "@/db/queries/papers";
import { setDemoMarks } from "@/db/queries/demo";
import { countUsers } from "@/db/queries/users";
import { DEMO_AGENTS, seedDemoGradings } from "./seed-gradings";
import { seedJudgeConfigs } from "./seed-judge-configs";
import { seedDemoAssignments } from "./seed-reviews";
import type { Database } from "@/db/client";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolderInTransaction } from "@/server/papers/import";
import { createAccount } from "@/server/users/create-account";

/** Demo accounts of the embedded mode, one per role. Printed at every start; never on PostgreSQL. */
export const DEMO_USERS = [
  { email: "staff@demo.rubric.studio", password: "staff-demo-pass", name: "Sam Staff", role: "staff" },
  { email: "author@demo.rubric.studio", password: "author-demo-pass", name: "Ada Author", role: "author" },
  { email: "grader@demo.rubric.studio", password: "grader-demo-pass", name: "Grace Grader", role: "grader" },
] as const;

export const DEMO_PAPER_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "rubrics", "demo");

/**
 * Seeds the demo users, the demo paper and synthetic graded runs of demo agents into an empty
 * database, all marked as demo data. Returns null when not empty (so a studio whose demo was
 * deleted and that has no user left seeds it again on its next start); else the demo paper's id.
 */
export async function seedDemo(db: Database): Promise<string | null> {
  if ((await countUsers(db)) > 0) return null;
  const { files, folderName } = readPaperFolder(DEMO_PAPER_DIR);
  return db.transaction(async (tx) => {
    const created = new Map<string, string>();
    for (const u of DEMO_USERS) {
      const user = await createAccount(tx, {
        email: u.email,
        name: u.name,
        password: u.password,
        isStaff: u.role === "staff",
      });
      created.set(u.role, user.id);
    }
    const staffId = created.get("staff")!;
    const result = await importPaperFolderInTransaction(tx, {
      files,
      folderName,
      userId: staffId,
      source: "seed:rubrics/demo",
    });
    for (const role of ["author", "grader"] as const) {
      const u = DEMO_USERS.find((d) => d.role === role)!;
      await addPaperMember(tx, { paperId: result.paperId, email: u.email, role, addedBy: staffId });
    }
    // Demo agents with graded runs, so the leaderboard and the review page have data at once.
    await seedDemoGradings(tx, { paperIds: [result.paperId], staffId, reviewerId: created.get("grader")! });
    // Review assignments for the demo grader, so "My reviews" has a queue.
    await seedDemoAssignments(tx, {
      paperId: result.paperId,
      staffId,
      graderId: created.get("grader")!,
      agentNames: DEMO_AGENTS.map((a) => a.name),
    });
    // Judges a newcomer can run on the demo submission without a key (and o3-mini for when there is one).
    await seedJudgeConfigs(tx, staffId);
    // Marked, so every page says it is demo data and staff can delete it in one action (server/demo/).
    await setDemoMarks(tx, { userIds: [...created.values()], paperIds: [result.paperId], agentIds: [] });
    return result.paperId;
  });
}
