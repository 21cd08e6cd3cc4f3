import { z } from "zod";
import { text } from "@/lib/text";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { listVersions } from "@/server/rubrics/read-rubric";
import { saveRubricVersion } from "@/server/rubrics/save-rubric-version";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { paperId: string };

const versionCreateSchema = z.object({
  name: text().trim().min(1, "is required").max(200, "must be at most 200 characters"),
});

export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper }) => ({
  versions: await listVersions(store, paper.id),
}));

/** Saves the live tree as a named version. */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, store, paper, user }) => {
  const { name } = await parseJsonBody(req, versionCreateSchema);
  const version = await saveRubricVersion(store, { paperId: paper.id, name, userId: user.id });
  return jsonAnswer({ version }, { status: 201 });
});
