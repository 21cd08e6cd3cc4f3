import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { getVersion } from "@/server/rubrics/read-rubric";

type Params = { paperId: string; versionId: string };

/** A saved version with its rows (and their keys), for diffs. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper, params }) => {
  const versionId = z.uuid("must be a version id").parse(params.versionId);
  return getVersion(store, paper.id, versionId);
});
