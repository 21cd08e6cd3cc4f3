import { apiRoute } from "@/server/http/route";
import { previewPaperFolderImport } from "@/server/papers/import";
import { readRubricUpload } from "@/server/papers/upload";

/**
 * What `POST /api/import` would do with the same upload (the paper it creates or updates, the
 * rubric diff against the live one), writing nothing. A POST because it carries the files.
 */
export const POST = apiRoute({ staff: true }, async ({ req, store }) => {
  const upload = await readRubricUpload(req);
  return previewPaperFolderImport(store, {
    files: upload.files,
    paperId: upload.paperId,
    folderName: upload.folderName,
  });
});
