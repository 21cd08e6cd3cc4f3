import { apiRoute } from "@/server/http/route";
import { importPaperFolder } from "@/server/papers/import";
import { readRubricUpload } from "@/server/papers/upload";
import { getLiveRubricWithLint } from "@/server/rubrics/rubric-lint";
import { canEditRubric } from "@/lib/auth/access";
import { rubricStats } from "@/lib/rubric/walk";

type Params = { paperId: string };

/** The live rubric tree with its stats and lint, the editor's, less the dismissed warnings (members and staff only). */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper, role }) => {
  const { revision, tree, lint } = await getLiveRubricWithLint(store, paper.id);
  return {
    revision,
    canEdit: canEditRubric(role),
    tree,
    stats: tree ? rubricStats(tree) : null,
    lint,
  };
});

/**
 * Replaces the rubric with an uploaded rubric.json or paper folder, as one new revision. Replacing
 * a rubric with nodes needs `expectedRevision` (checked against the live revision) or `replace=true`.
 */
export const PUT = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, store, paper, user }) => {
  const upload = await readRubricUpload(req);
  return importPaperFolder(store, {
    files: upload.files,
    paperId: paper.id,
    userId: user.id,
    source: `upload:${user.email}`,
    replace: upload.replace,
  });
});
