import { apiRoute } from "@/server/http/route";
import { announceRubricRevision } from "@/server/live/rubric-feed";
import { importPaperFolder } from "@/server/papers/import";
import { readRubricUpload } from "@/server/papers/upload";

/**
 * Staff import of a PaperBench paper folder: creates the paper when it does not exist (id from the
 * `paperId` field, else config.yaml, else `folderName`) and replaces its rubric.
 */
export const POST = apiRoute({ staff: true }, async ({ req, db, dbKind, user }) => {
  const upload = await readRubricUpload(req);
  const result = await importPaperFolder(db, {
    files: upload.files,
    paperId: upload.paperId,
    folderName: upload.folderName,
    userId: user.id,
    source: `upload:${user.email}`,
  });
  await announceRubricRevision(db, dbKind, result.paperId, result.revision);
  return Response.json(result, { status: result.createdPaper ? 201 : 200 });
});
