import { apiRoute } from "@/server/http/route";
import { importPaperFolder } from "@/server/papers/import";
import { readRubricUpload } from "@/server/papers/upload";
import { jsonAnswer } from "@/server/http/json-answer";

/**
 * Staff import of a PaperBench paper folder: creates the paper when it does not exist (id from the
 * `paperId` field, else config.yaml, else `folderName`) and replaces its rubric. Replacing a rubric
 * with nodes needs `expectedRevision` (the revision the preview showed the changes against) or
 * `replace=true`; otherwise 409.
 */
export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  const upload = await readRubricUpload(req);
  const result = await importPaperFolder(store, {
    files: upload.files,
    paperId: upload.paperId,
    folderName: upload.folderName,
    userId: user.id,
    source: `upload:${user.email}`,
    replace: upload.replace,
  });
  return jsonAnswer(result, { status: result.createdPaper ? 201 : 200 });
});
