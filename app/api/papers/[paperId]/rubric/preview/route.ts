import { apiRoute } from "@/server/http/route";
import { previewPaperFolderImport } from "@/server/papers/import";
import { readRubricUpload } from "@/server/papers/upload";

type Params = { paperId: string };

/** What `PUT …/rubric` would do with the same upload (the diff against the live rubric), writing nothing. */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, store, paper }) => {
  const upload = await readRubricUpload(req);
  return previewPaperFolderImport(store, { files: upload.files, paperId: paper.id });
});
