import { getRubricByPaperId, getRubricTree } from "@/db/queries/rubrics";
import { apiRoute } from "@/server/http/route";
import { announceRubricRevision } from "@/server/live/rubric-feed";
import { importPaperFolder } from "@/server/papers/import";
import { readRubricUpload } from "@/server/papers/upload";
import { lintPaperBenchRules } from "@/lib/rubric/lint";
import { rubricStats } from "@/lib/rubric/walk";

type Params = { paperId: string };

/** The live rubric tree with its stats and PaperBench warnings (members and staff only). */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper, role }) => {
  const rubric = await getRubricByPaperId(db, paper.id);
  const tree = rubric ? await getRubricTree(db, rubric.id) : null;
  return {
    revision: rubric?.revision ?? 0,
    canEdit: role === "staff" || role === "author",
    tree,
    stats: tree ? rubricStats(tree) : null,
    warnings: tree ? lintPaperBenchRules(tree) : [],
  };
});

/** Replaces the rubric with an uploaded rubric.json or paper folder, as one new revision. */
export const PUT = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, db, dbKind, paper, user }) => {
  const upload = await readRubricUpload(req);
  const result = await importPaperFolder(db, {
    files: upload.files,
    paperId: paper.id,
    userId: user.id,
    source: `upload:${user.email}`,
  });
  await announceRubricRevision(db, dbKind, paper.id, result.revision);
  return result;
});
