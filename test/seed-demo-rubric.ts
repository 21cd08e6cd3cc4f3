/** The demo paper (`rubrics/demo`) imported into a test database. */
import fs from "node:fs";
import path from "node:path";
import type { DbHandle } from "@/db/client";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import type { NodeRow } from "@/lib/rubric/tree-rows";

export const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
export const DEMO_RUBRIC = fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8");

/**
 * Imports the demo paper folder as `paperId` (revision 1), with `rubricText` as its rubric.json
 * when given; its rubric id and live rows.
 */
export async function seedDemoRubric(
  handle: DbHandle,
  paperId: string,
  rubricText?: string,
): Promise<{ paperId: string; rubricId: string; rows: NodeRow[] }> {
  const { files } = readPaperFolder(DEMO_DIR);
  await importPaperFolder(handle, {
    files: rubricText === undefined ? files : { ...files, rubric: rubricText },
    paperId,
    userId: null,
    source: "t",
  });
  const rubricId = (await getRubricByPaperId(handle.db, paperId))!.id;
  return { paperId, rubricId, rows: await getLiveNodeRows(handle.db, rubricId) };
}
